import type { OpenApiOperation } from './types.ts';

/** POST /v1/auth/token: served by the authorization server (facades/oauth), not by the route table. */
export const TOKEN_ENDPOINT = {
  method: 'POST' as const,
  path: '/auth/token',
  summary: 'Token endpoint: exchange an authorization code (with its PKCE verifier) or a refresh token',
  tag: 'Authentication',
  auth: 'public' as const,
};

const field = (description: string) => ({ type: 'string', description });

const REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: field('authorization_code: the code the redirect URI received.'),
    code_verifier: field('authorization_code: the PKCE verifier (S256) of the authorization request.'),
    redirect_uri: field('authorization_code: exactly the redirect URI of the authorization request.'),
    client_id: field('The client id (registered, or a client ID metadata document URL).'),
    refresh_token: field('refresh_token: the newest refresh token; each is single-use (rotation).'),
    resource: field('Optional: the MCP endpoint URL, the only resource tokens are issued for.'),
  },
  required: ['grant_type', 'client_id'],
};

const TOKEN_SCHEMA = {
  type: 'object',
  properties: {
    access_token: field('Opaque bearer token for /api/mcp and /v1, audience the MCP endpoint.'),
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer', description: 'Seconds the access token lives.' },
    refresh_token: field('A new refresh token; the one presented is now spent.'),
    scope: { type: 'string', enum: ['svc:mcp'] },
  },
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

export const TOKEN_ENDPOINT_OPERATION = {
  operationId: 'exchangeToken',
  summary: TOKEN_ENDPOINT.summary,
  description:
    'The OAuth 2.1 token endpoint in REST form (the same as /oauth/token; docs/oauth.md). Errors use the ' +
    'envelope with type `oauth_error` and the OAuth error as `code` (`invalid_grant`, `invalid_request`, ' +
    '`invalid_target`, `unsupported_grant_type`; `invalid_client` with 401).',
  tags: [TOKEN_ENDPOINT.tag],
  security: [],
  requestBody: {
    required: true,
    content: {
      'application/x-www-form-urlencoded': { schema: REQUEST_SCHEMA },
      'application/json': { schema: REQUEST_SCHEMA },
    },
  },
  responses: {
    '200': { description: 'OK', content: { 'application/json': { schema: TOKEN_SCHEMA } } },
    '400': {
      description: '`oauth_error`: the grant or request is not valid.',
      content: { 'application/json': { schema: ERROR_REF } },
    },
    '401': {
      description: '`oauth_error` with code `invalid_client`.',
      content: { 'application/json': { schema: ERROR_REF } },
    },
  },
} satisfies OpenApiOperation;
