import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type Provider from 'oidc-provider';
import { loadOAuthKeys } from '../../schema/oauth/authorization.ts';
import type { AppServices } from '../../schema/services.ts';
import { createInteractionRoutes } from './interactions.ts';
import { partnerAuthorizationCodes } from './partner-codes.ts';
import { createProvider, OAUTH_ROUTES } from './provider.ts';

/** Paths oidc-provider answers; it answers 404 for anything else, so it is handed only these. */
const PROVIDER_PATHS = new Set<string>([
  ...Object.values(OAUTH_ROUTES),
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
]);

const isProviderPath = (path: string) =>
  PROVIDER_PATHS.has(path) ||
  // the provider's own continuation of an authorization after an interaction, and client management
  path.startsWith(`${OAUTH_ROUTES.authorization}/`) ||
  path.startsWith(`${OAUTH_ROUTES.registration}/`);

/** The spec's REST token endpoint ({base_url}/auth/token): the same grants, REST error envelope. */
export const REST_TOKEN_PATH = '/v1/auth/token';

/** Every path the OAuth router answers lies under one of these (its pages, the provider, discovery). */
export const OAUTH_PATH_PREFIXES = [
  '/oauth',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
  REST_TOKEN_PATH,
] as const;

function invalidTokenRequest(res: Response): void {
  res.status(400).json({
    type: 'oauth_error',
    code: 'invalid_request',
    message:
      'The body must be form-encoded, or a JSON object of string fields (grant_type, code, code_verifier, …).',
    ...(res.locals.requestId ? { requestId: res.locals.requestId } : {}),
  });
}

export interface OAuthSurface {
  router: Router;
  provider: Provider;
}

/**
 * The authorization server under express: the provider on its own paths (no body parser before it),
 * its sign-in and consent pages, and POST /v1/auth/token, whose errors are rewritten into the REST
 * envelope (`oauth_error`, the OAuth error code as `code`, status 400 or 401).
 */
export function createOAuthRoutes(app: AppServices): OAuthSurface {
  const keys = loadOAuthKeys(app.config.DATA_DIR, app.config.OAUTH_KEYS);
  const provider = createProvider(app, keys);
  app.authorizationCodes = partnerAuthorizationCodes(app, provider);
  const restTokenRequests = new WeakSet<IncomingMessage>();

  provider.use(async (ctx, next) => {
    await next();
    if (!restTokenRequests.has(ctx.req) || ctx.status < 400) return;
    const body = ctx.body as { error?: string; error_description?: string } | undefined;
    if (!body || typeof body !== 'object' || typeof body.error !== 'string') return;
    const requestId = (ctx.res as unknown as Response).locals?.requestId as string | undefined;
    ctx.body = {
      type: 'oauth_error',
      code: body.error,
      message: body.error_description ?? body.error,
      ...(requestId ? { requestId } : {}),
    };
  });

  const callback = provider.callback();
  const router = Router();
  router.use(createInteractionRoutes(app, provider, keys.cookieKeys[0] ?? ''));
  // The REST form also takes JSON (the spec's default body): parsed here and handed over as form
  // fields (oidc-provider reads an already-parsed body; it logs once that it did).
  const json = express.json({ limit: '16kb', type: ['application/json', 'application/*+json'] });
  router.post(
    REST_TOKEN_PATH,
    json,
    (req: Request, res: Response) => {
      restTokenRequests.add(req);
      if (req.is(['application/json', 'application/*+json'])) {
        const body = req.body as unknown;
        const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : null;
        if (!fields || fields.some(([, value]) => typeof value !== 'string')) {
          return invalidTokenRequest(res);
        }
        req.headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      req.url = OAUTH_ROUTES.token;
      return callback(req, res);
    },
    // A body that is not JSON at all is the token endpoint's invalid_request too, in its envelope.
    (_error: unknown, _req: Request, res: Response, _next: NextFunction) => invalidTokenRequest(res),
  );

  router.use((req: Request, res: Response, next) => {
    if (isProviderPath(req.path)) return callback(req, res);
    next();
  });
  return { router, provider };
}
