import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import {
  accountExists,
  mcpResourceUrl,
  OAUTH_SCOPE,
  type OAuthKeys,
  oauthStorage,
} from '../../schema/oauth/authorization.ts';
import type { AppServices } from '../../schema/services.ts';
import { asFetch } from '../../src/platform/http/as-fetch.ts';
import { inlineScriptHashes, PAGE_POLICY, pageHeaders } from '../security-headers.ts';
import { renderProviderError } from './pages/error-page.ts';
import { logoutSource, postLogoutSuccessSource } from './pages/logout-pages.ts';
import { pinRequestView } from './request-view.ts';

/** The authorization server's endpoints: each under /oauth, handed to oidc-provider and nothing else. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/logout',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
} as const;

export const interactionPath = (uid: string) => `/oauth/interaction/${uid}`;

const DAY = 86_400;

/**
 * oidc-provider (OpenID certified) as the OAuth 2.1 authorization server for agents: authorization code
 * with PKCE S256 only, exact redirect URIs, dynamic client registration, refresh tokens rotated on every
 * use (a reused one revokes the grant), and resource indicators binding every access token to the MCP
 * endpoint with scope svc:mcp. Access tokens are opaque; the adapter records them in access_tokens so
 * the API verifies them like personal access tokens. docs/oauth.md describes the whole.
 */
export function createProvider(app: AppServices, keys: OAuthKeys): Provider {
  const { config } = app;
  const resource = mcpResourceUrl(config);
  const secure = config.PUBLIC_URL.startsWith('https:');

  const resourceServer = {
    scope: OAUTH_SCOPE,
    audience: resource,
    accessTokenFormat: 'opaque' as const,
    accessTokenTTL: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
  };

  const configuration: Configuration = {
    adapter: oauthStorage(app, keys.sealKey),
    clients: [],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, secure, sameSite: 'lax', httpOnly: true },
      short: { signed: true, secure, sameSite: 'lax', httpOnly: true },
      names: { session: 'tb_oauth_session', interaction: 'tb_oauth_interaction', resume: 'tb_oauth_resume' },
    },
    routes: OAUTH_ROUTES,
    findAccount: async (_ctx, sub) =>
      (await accountExists(app, sub)) ? { accountId: sub, claims: () => ({ sub }) } : undefined,
    claims: { openid: ['sub'] },
    // svc:mcp is listed too: MCP clients register with `scope: "svc:mcp"` in their metadata, which the
    // provider checks against this list; access tokens still get it from the resource server below.
    scopes: ['openid', 'offline_access', OAUTH_SCOPE],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    },
    // MCP clients rarely ask for offline_access: every client allowed the grant type gets a refresh token,
    // rotated on each use, and it outlives the browser session that approved it.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AccessToken: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * DAY,
      Grant: config.OAUTH_REFRESH_TOKEN_TTL_DAYS * DAY,
      RefreshToken: config.OAUTH_REFRESH_TOKEN_TTL_DAYS * DAY,
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens (RFC 7009 §2.1).
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // Clients may use an https URL as their client_id (CIMD): the document is fetched through the
      // SSRF-guarded client (OUTBOUND_ALLOW_PRIVATE decides about private addresses), cached 5 min to 1 day.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: { min: 300, max: 86_400 },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) {
            throw new errors.InvalidTarget(`the only resource served here is ${resource}`);
          }
          return resourceServer;
        },
      },
    },
    clientBasedCORS: () => true,
    fetch: asFetch(app.outbound) as Configuration['fetch'],
    renderError: async (ctx: KoaContextWithOIDC, out, error) => {
      ctx.type = 'html';
      ctx.body = renderProviderError(out, error);
    },
  };

  const provider = new Provider(config.PUBLIC_URL, configuration);
  pinRequestView(provider, config.PUBLIC_URL);
  provider.use(async (ctx, next) => {
    await next();
    // The same for every caller (built from PUBLIC_URL), so a shared cache may keep it a while.
    if (ctx.oidc?.route === 'discovery' && ctx.status === 200)
      ctx.set('Cache-Control', 'public, max-age=300');
    // Its HTML (the error page, form_post, sign-out) gets our pages' headers; form_post's one inline
    // script runs by its hash.
    if (ctx.response.is('html') && typeof ctx.body === 'string') {
      const scripts = inlineScriptHashes(ctx.body);
      ctx.set(
        pageHeaders(scripts.length > 0 ? `${PAGE_POLICY}; script-src ${scripts.join(' ')}` : PAGE_POLICY),
      );
      ctx.set('Cache-Control', 'no-store');
    }
  });
  provider.on('server_error', (_ctx, err) => app.logger.error({ err }, 'authorization server error'));
  return provider;
}
