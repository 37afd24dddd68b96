import { type Request, type Response, Router } from 'express';
import type { PreparedOperation } from '../../../schema/execute.ts';
import type { AppServices } from '../../../schema/services.ts';
import { statusForError } from '../../rest/errors.ts';
import { runAndSelect } from '../../run-operation.ts';
import { formBody } from '../forms.ts';
import type { SafeHtml } from '../pages/html.ts';
import { sendPage } from '../pages/layout.ts';
import { signedIn, type WebSessions } from '../session/index.ts';
import { SETTINGS_OPERATIONS as OPS } from './operations.ts';
import {
  type App,
  appsPage,
  createdSecretPage,
  type Delivery,
  deliveriesPage,
  type Token,
  tokensPage,
  type Webhook,
  webhooksPage,
} from './pages.ts';

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
 * deliveries. Server-rendered pages behind the web pages' session (session/index.ts: password sign-in,
 * cookie `tb_session`); every form carries a CSRF token bound to the session. Each action runs a
 * GraphQL operation as the account holder.
 */
export function createSettingsRoutes(app: AppServices, sessions: WebSessions): Router {
  const router = Router();
  const form = formBody();

  const run = async <T>(res: Response, op: PreparedOperation, variables: Record<string, unknown> = {}) => {
    const outcome = await runAndSelect(app, op, undefined, {
      principal: signedIn(res).principal,
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
  const csrf = (res: Response) => signedIn(res).csrf;
  const checkCsrf = sessions.checkCsrf;

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
  router.use('/settings', sessions.requireSession);
  router.post('/settings/sign-out', form, checkCsrf, sessions.signOut(null));

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
