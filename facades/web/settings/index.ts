import { randomBytes } from 'node:crypto';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Principal } from '../../../schema/context.ts';
import type { PreparedOperation } from '../../../schema/execute.ts';
import { loadOAuthKeys, passwordSignIn } from '../../../schema/oauth/authorization.ts';
import type { AppServices } from '../../../schema/services.ts';
import {
  settingsPrincipal,
  signInToSettings,
  signOutOfSettings,
  WEB_SESSION_TTL_MS,
} from '../../../schema/web/sessions.ts';
import { statusForError } from '../../rest/errors.ts';
import { runAndSelect } from '../../run-operation.ts';
import { cookieHeader, cookiesOf } from '../cookies.ts';
import { csrfToken, requireCsrf, sentCsrfMatches } from '../csrf.ts';
import { formBody, refusedAttempt } from '../forms.ts';
import { html, type SafeHtml } from '../pages/html.ts';
import { sendPage } from '../pages/layout.ts';
import { SETTINGS_OPERATIONS as OPS } from './operations.ts';
import {
  type App,
  appsPage,
  createdSecretPage,
  type Delivery,
  deliveriesPage,
  signInPage,
  type Token,
  tokensPage,
  type Webhook,
  webhooksPage,
} from './pages.ts';

const SESSION_COOKIE = 'tb_session';
/** Before sign-in there is no session to bind the form to: a random cookie and the same hidden value. */
const SIGN_IN_CSRF_COOKIE = 'tb_signin_csrf';

/** A failed operation, as the page shows it: the status of its error type and its message. */
class PageError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/**
 * Developer settings: personal access tokens, connected OAuth apps, webhook endpoints and their
 * deliveries. Server-rendered pages, signed in by password (the same throttled sign-in as OAuth) into a
 * cookie session (HttpOnly, SameSite=Lax, Secure with https, 12 hours); every form carries a CSRF token
 * bound to the session. Each action runs a GraphQL operation as the account holder.
 */
export function createSettingsRoutes(app: AppServices): Router {
  const router = Router();
  const form = formBody();
  const key = loadOAuthKeys(app.config.DATA_DIR, app.config.OAUTH_KEYS).cookieKeys[0] ?? '';
  const secure = app.config.PUBLIC_URL.startsWith('https:');
  const cookie = (name: string, value: string, maxAgeMs: number, sameSite: 'Lax' | 'Strict' = 'Lax') =>
    cookieHeader(name, value, { path: '/settings', maxAgeMs, sameSite, secure });

  const run = async <T>(res: Response, op: PreparedOperation, variables: Record<string, unknown> = {}) => {
    const outcome = await runAndSelect(app, op, undefined, {
      principal: res.locals.principal as Principal,
      channel: 'graphql',
      variables,
      requestId: res.locals.requestId as string | undefined,
    });
    if ('error' in outcome) {
      throw new PageError(outcome.error.message, statusForError(outcome.error.extensions.type));
    }
    return outcome.value as T;
  };

  const show = (res: Response, title: string, body: SafeHtml, status = 200) =>
    sendPage(res, status, title, body);
  const csrf = (res: Response) => res.locals.csrf as string;

  const showSignIn = (res: Response, status = 200, error?: string, email?: string) => {
    const token = randomBytes(24).toString('base64url');
    res.append('Set-Cookie', cookie(SIGN_IN_CSRF_COOKIE, token, 3_600_000, 'Strict'));
    show(res, 'Sign in to developer settings', signInPage(token, error, email), status);
  };

  const requireSession = async (req: Request, res: Response, next: NextFunction) => {
    const secret = cookiesOf(req).get(SESSION_COOKIE);
    const principal = secret ? await settingsPrincipal(app, secret) : null;
    if (!principal || !secret) {
      if (req.method === 'GET') return res.redirect(303, '/settings/sign-in');
      return showSignIn(res, 401, 'Your session has ended: sign in again.');
    }
    res.locals.principal = principal;
    res.locals.sessionSecret = secret;
    res.locals.csrf = csrfToken(key, 'settings', secret);
    next();
  };

  const checkCsrf = requireCsrf(
    (_req, res) => csrf(res),
    html`<p class="alert" role="alert">The form is out of date: <a href="/settings">reload</a> and try again.</p>`,
  );

  /** Renders a page; a failed operation re-renders `fallback` with the error and its status. */
  const page =
    (
      handler: (req: Request, res: Response) => Promise<void>,
      fallback?: (res: Response, error: string, status: number) => Promise<void>,
    ) =>
    async (req: Request, res: Response) => {
      try {
        await handler(req, res);
      } catch (error) {
        if (!(error instanceof PageError) || !fallback) throw error;
        await fallback(res, error.message, error.status);
      }
    };

  router.get('/settings', (_req, res) => res.redirect(303, '/settings/tokens'));
  router.get('/settings/sign-in', (_req, res) => showSignIn(res));
  router.post('/settings/sign-in', form, async (req, res) => {
    const expected = cookiesOf(req).get(SIGN_IN_CSRF_COOKIE) ?? '';
    const email = String(req.body.email ?? '');
    if (!expected || !sentCsrfMatches(req, expected))
      return showSignIn(res, 403, 'The form is out of date: try again.', email);
    try {
      const accountId = await passwordSignIn(app, {
        email,
        password: String(req.body.password ?? ''),
        ip: req.ip ?? 'unknown',
      });
      const session = await signInToSettings(app, accountId);
      res.append('Set-Cookie', cookie(SESSION_COOKIE, session.secret, WEB_SESSION_TTL_MS));
      res.append('Set-Cookie', cookie(SIGN_IN_CSRF_COOKIE, '', 0, 'Strict'));
      res.redirect(303, '/settings/tokens');
    } catch (error) {
      const refused = refusedAttempt(res, error);
      showSignIn(res, refused.status, refused.message, email);
    }
  });

  router.use('/settings', requireSession);
  router.post('/settings/sign-out', form, checkCsrf, async (_req, res) => {
    await signOutOfSettings(app, res.locals.sessionSecret as string);
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', 0));
    res.redirect(303, '/settings/sign-in');
  });

  // Tokens (OAuth access tokens are listed with their app under Connected apps).
  const showTokens = async (res: Response, error?: string, status = 200) => {
    const { accessTokens } = await run<{ accessTokens: Token[] }>(res, OPS.tokens);
    show(
      res,
      'Access tokens',
      tokensPage(
        csrf(res),
        accessTokens.filter((t) => t.kind !== 'oauth'),
        error,
      ),
      status,
    );
  };
  router.get(
    '/settings/tokens',
    page((_req, res) => showTokens(res)),
  );
  router.post(
    '/settings/tokens',
    form,
    checkCsrf,
    page(async (req, res) => {
      const scopes = ([] as unknown[]).concat(req.body.scopes ?? []).map(String);
      const { createAccessToken } = await run<{ createAccessToken: { token: string } }>(
        res,
        OPS.createToken,
        {
          name: String(req.body.name ?? '').trim(),
          scopes: scopes.length ? scopes : ['svc:mcp'],
          expires: String(req.body.expires ?? 'none'),
        },
      );
      show(
        res,
        'Token created',
        createdSecretPage(csrf(res), 'Your new token:', createAccessToken.token, '/settings/tokens'),
        201,
      );
    }, showTokens),
  );
  router.post(
    '/settings/tokens/:id/revoke',
    form,
    checkCsrf,
    page(async (req, res) => {
      await run(res, OPS.revokeToken, { id: req.params.id });
      res.redirect(303, '/settings/tokens');
    }, showTokens),
  );

  // Connected apps.
  const showApps = async (res: Response, error?: string, status = 200) => {
    const { connectedApps } = await run<{ connectedApps: App[] }>(res, OPS.apps);
    show(res, 'Connected apps', appsPage(csrf(res), connectedApps, error), status);
  };
  router.get(
    '/settings/apps',
    page((_req, res) => showApps(res)),
  );
  router.post(
    '/settings/apps/:id/disconnect',
    form,
    checkCsrf,
    page(async (req, res) => {
      await run(res, OPS.disconnectApp, { id: req.params.id });
      res.redirect(303, '/settings/apps');
    }, showApps),
  );

  // Webhooks.
  const showWebhooks = async (res: Response, error?: string, status = 200) => {
    const { webhookEndpoints } = await run<{ webhookEndpoints: Webhook[] }>(res, OPS.webhooks);
    show(res, 'Webhooks', webhooksPage(csrf(res), webhookEndpoints, error), status);
  };
  router.get(
    '/settings/webhooks',
    page((_req, res) => showWebhooks(res)),
  );
  router.post(
    '/settings/webhooks',
    form,
    checkCsrf,
    page(async (req, res) => {
      const description = String(req.body.description ?? '').trim();
      const { createWebhookEndpointWire: created } = await run<{
        createWebhookEndpointWire: { signingSecret: string };
      }>(res, OPS.createWebhook, {
        url: String(req.body.url ?? '').trim(),
        description: description || null,
      });
      show(
        res,
        'Endpoint added',
        createdSecretPage(csrf(res), 'Its signing secret:', created.signingSecret, '/settings/webhooks'),
        201,
      );
    }, showWebhooks),
  );
  for (const [action, active] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    router.post(
      `/settings/webhooks/:id/${action}`,
      form,
      checkCsrf,
      page(async (req, res) => {
        await run(res, OPS.setWebhookActive, { id: req.params.id, active });
        res.redirect(303, '/settings/webhooks');
      }, showWebhooks),
    );
  }
  router.post(
    '/settings/webhooks/:id/delete',
    form,
    checkCsrf,
    page(async (req, res) => {
      await run(res, OPS.deleteWebhook, { id: req.params.id });
      res.redirect(303, '/settings/webhooks');
    }, showWebhooks),
  );
  router.get(
    '/settings/webhooks/:id',
    page(async (req, res) => {
      const { webhookDeliveries } = await run<{ webhookDeliveries: Delivery[] }>(res, OPS.deliveries, {
        endpointId: req.params.id,
      });
      show(res, 'Deliveries', deliveriesPage(csrf(res), webhookDeliveries));
    }, showWebhooks),
  );
  return router;
}
