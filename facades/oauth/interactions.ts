import { type Request, type Response, Router } from 'express';
import type Provider from 'oidc-provider';
import { accountEmail, passwordSignIn, passwordSignUp } from '../../schema/oauth/authorization.ts';
import type { AppServices } from '../../schema/services.ts';
import { csrfToken, requireCsrf } from '../web/csrf.ts';
import { formBody, refusedAttempt } from '../web/forms.ts';
import { html } from '../web/pages/html.ts';
import { sendPage } from '../web/pages/layout.ts';
import { consentForm, SCOPE_DESCRIPTIONS, signInForm, signUpForm } from './pages/interaction-pages.ts';
import { interactionPath } from './provider.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The pages oidc-provider sends a person to: sign in (or sign up), then approve or deny the client.
 * The interaction cookie binds each page to the browser that started the authorization; the form's
 * CSRF field binds each post to its interaction.
 */
export function createInteractionRoutes(app: AppServices, provider: Provider, csrfKey: string): Router {
  const router = Router();
  const form = formBody();
  const csrfFor = (uid: string) => csrfToken(csrfKey, 'interaction', uid);

  const load = async (req: Request, res: Response): Promise<Interaction | null> => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== req.params.uid) throw new Error('interaction mismatch');
      return details;
    } catch {
      sendPage(
        res,
        400,
        'This sign-in has expired',
        html`<p class="alert" role="alert">This page is no longer valid (it expired, or was opened in another browser).</p>
<p>Go back to the app and connect again.</p>`,
      );
      return null;
    }
  };

  const checkCsrf = requireCsrf(
    (req) => csrfFor(String(req.params.uid)),
    html`<p class="alert" role="alert">The form is out of date: reload the page and try again.</p>`,
  );

  const clientName = async (interaction: Interaction) => {
    const clientId = String(interaction.params.client_id ?? '');
    const client = await provider.Client.find(clientId).catch(() => undefined);
    return client?.clientName ?? clientId;
  };

  const finish = async (req: Request, res: Response, result: Record<string, unknown>) => {
    const to = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    res.redirect(303, to);
  };

  const showSignIn = async (
    res: Response,
    interaction: Interaction,
    status = 200,
    error?: string,
    email?: string,
  ) => {
    const uid = interaction.uid;
    sendPage(
      res,
      status,
      'Sign in',
      signInForm({
        action: `${interactionPath(uid)}/login`,
        signUpHref: `${interactionPath(uid)}/sign-up`,
        csrf: csrfFor(uid),
        clientName: await clientName(interaction),
        error: error ?? null,
        ...(email === undefined ? {} : { email }),
      }),
    );
  };

  const showConsent = async (res: Response, interaction: Interaction) => {
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const scopes = new Set([
      ...(details.missingOIDCScope ?? []),
      ...Object.values(details.missingResourceScopes ?? {}).flat(),
    ]);
    const accountId = String(interaction.session?.accountId ?? '');
    const redirectUri = String(interaction.params.redirect_uri ?? '');
    sendPage(
      res,
      200,
      'Connect an app',
      consentForm({
        action: `${interactionPath(interaction.uid)}/consent`,
        csrf: csrfFor(interaction.uid),
        clientName: await clientName(interaction),
        redirectHost: URL.canParse(redirectUri) ? new URL(redirectUri).host || redirectUri : redirectUri,
        scopes: [...scopes].map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] ?? name })),
        email: (await accountEmail(app, accountId)) ?? '',
      }),
    );
  };

  router.get('/oauth/interaction/:uid', async (req, res) => {
    const interaction = await load(req, res);
    if (!interaction) return;
    if (interaction.prompt.name === 'login') return showSignIn(res, interaction);
    return showConsent(res, interaction);
  });

  router.post('/oauth/interaction/:uid/login', form, checkCsrf, async (req, res) => {
    const interaction = await load(req, res);
    if (!interaction) return;
    const email = String(req.body.email ?? '');
    try {
      const accountId = await passwordSignIn(app, {
        email,
        password: String(req.body.password ?? ''),
        ip: req.ip ?? 'unknown',
      });
      await finish(req, res, { login: { accountId } });
    } catch (error) {
      const refused = refusedAttempt(res, error);
      await showSignIn(res, interaction, refused.status, refused.message, email);
    }
  });

  router.get('/oauth/interaction/:uid/sign-up', async (req, res) => {
    const interaction = await load(req, res);
    if (!interaction) return;
    sendPage(
      res,
      200,
      'Create an account',
      signUpForm({
        action: `${interactionPath(interaction.uid)}/sign-up`,
        signInHref: interactionPath(interaction.uid),
        csrf: csrfFor(interaction.uid),
      }),
    );
  });

  router.post('/oauth/interaction/:uid/sign-up', form, checkCsrf, async (req, res) => {
    const interaction = await load(req, res);
    if (!interaction) return;
    const input = {
      email: String(req.body.email ?? ''),
      firstName: String(req.body.first_name ?? '').slice(0, 200) || null,
      lastName: String(req.body.last_name ?? '').slice(0, 200) || null,
      password: String(req.body.password ?? ''),
    };
    try {
      const accountId = await passwordSignUp(app, { ...input, ip: req.ip ?? 'unknown' });
      await finish(req, res, { login: { accountId } });
    } catch (error) {
      const refused = refusedAttempt(res, error);
      sendPage(
        res,
        refused.status,
        'Create an account',
        signUpForm({
          action: `${interactionPath(interaction.uid)}/sign-up`,
          signInHref: interactionPath(interaction.uid),
          csrf: csrfFor(interaction.uid),
          email: input.email,
          firstName: input.firstName ?? '',
          lastName: input.lastName ?? '',
          error: refused.message,
        }),
      );
    }
  });

  router.post('/oauth/interaction/:uid/consent', form, checkCsrf, async (req, res) => {
    const interaction = await load(req, res);
    if (!interaction) return;
    if (interaction.prompt.name !== 'consent') return showSignIn(res, interaction);
    if (req.body.decision !== 'approve') {
      return finish(req, res, { error: 'access_denied', error_description: 'The account holder declined.' });
    }
    const accountId = String(interaction.session?.accountId ?? '');
    const clientId = String(interaction.params.client_id ?? '');
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) return finish(req, res, { error: 'access_denied', error_description: 'The grant has gone.' });
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    // Both kinds of missing scope must be granted, or the provider asks for consent again (a loop).
    if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await finish(req, res, { consent: { grantId } });
  });

  return router;
}
