import {
  type AccessToken,
  issueToken,
  LISTED_TOKEN_KINDS,
  type ListedTokenKind,
  listTokens,
  revokeToken,
  SCOPES,
  type Scope,
  TOKEN_EXPIRIES,
  TOKEN_STATUSES,
  type TokenExpiry,
  tokenStatus,
} from '../../src/domains/accounts/index.ts';
import { forbidden } from '../../src/platform/errors.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { uuidValidation } from '../id-validation.ts';

const ScopeEnum = builder.enumType('Scope', {
  description: 'What a token may do: `SVC_MCP` the API and agent tools, `SVC_FRAUD` the fraud-risk score.',
  values: Object.fromEntries(
    SCOPES.map((scope) => [scope.replace(':', '_').toUpperCase(), { value: scope }]),
  ),
});
const ExpiryEnum = builder.enumType('TokenExpiry', {
  description: 'How long a new token lives.',
  values: Object.fromEntries(TOKEN_EXPIRIES.map((e) => [`EXPIRES_${e.toUpperCase()}`, { value: e }])),
});

const TokenKindEnum = enumFromList('TokenKind', LISTED_TOKEN_KINDS, {
  description: 'How a token was issued.',
  valueDescriptions: {
    pat: 'A personal access token (svc_pat_…).',
    verified_email: 'Issued to a headless agent that proved an email address.',
    oauth: 'An OAuth 2.1 access token.',
    agent_login: 'Issued to an agent by the auth_login tool (email and password), for 24 hours.',
  },
});
const TokenStatusEnum = enumFromList('TokenStatus', TOKEN_STATUSES, {
  description: 'Whether a token still works.',
});

export const AccessTokenRef = builder.objectRef<AccessToken>('AccessToken').implement({
  description: 'A personal access token as listed in developer settings. The secret is never shown again.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    // Never a session's dashboard token: listing and revoking leave those out (docs/dashboard.md).
    kind: t.field({ type: TokenKindEnum, resolve: (token) => token.kind as ListedTokenKind }),
    prefix: t.exposeString('displayPrefix', { description: 'The first characters of the token.' }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    status: t.field({ type: TokenStatusEnum, resolve: (token) => tokenStatus(token) }),
  }),
});

interface CreatedToken {
  token: string;
  accessToken: AccessToken;
}

const CreatedTokenRef = builder.objectRef<CreatedToken>('CreatedAccessToken').implement({
  description: 'A token just created: its record, and the secret shown this once.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The secret, shown this once. Store it now.' }),
    accessToken: t.field({ type: AccessTokenRef, resolve: (created) => created.accessToken }),
  }),
});

builder.queryField('accessTokens', (t) =>
  t.field({
    type: [AccessTokenRef],
    description:
      'Your personal and verified-email access tokens (secrets are never shown again), newest first. OAuth tokens are under connectedApps.',
    authScopes: MCP,
    resolve: (_root, _args, context) => listTokens(context.em, requirePrincipal(context).accountId),
  }),
);

builder.mutationField('createAccessToken', (t) =>
  t.field({
    type: CreatedTokenRef,
    description:
      'Creates a personal access token with scopes the calling token holds; the secret is shown once.',
    authScopes: MCP,
    args: {
      name: t.arg.string({ required: true, validate: { minLength: 1, maxLength: 200 } }),
      scopes: t.arg({ type: [ScopeEnum], required: false }),
      expires: t.arg({ type: ExpiryEnum, required: false }),
    },
    resolve: async (_root, args, context) => {
      const principal = requirePrincipal(context);
      const scopes = (args.scopes ?? ['svc:mcp']) as Scope[];
      const escalated = scopes.filter((scope) => !principal.scopes.has(scope));
      if (escalated.length > 0) {
        throw forbidden(
          `A token can only grant scopes it holds itself; missing ${escalated.join(', ')}.`,
          'insufficient_scope',
        );
      }
      const issued = await issueToken(context.em, {
        accountId: principal.accountId,
        name: args.name,
        scopes,
        expires: (args.expires ?? 'none') as TokenExpiry,
      });
      return { token: issued.token, accessToken: issued.record };
    },
  }),
);

builder.mutationField('revokeAccessToken', (t) =>
  t.field({
    type: AccessTokenRef,
    description: 'Revokes one of your tokens; requests with it fail from the next one on.',
    authScopes: MCP,
    args: { id: t.arg.id({ required: true, validate: uuidValidation('access token') }) },
    resolve: async (_root, args, context) => {
      const token = await revokeToken(context.em, requirePrincipal(context).accountId, String(args.id));
      // Committed: now every instance forgets the token (this one at once, others within one pub/sub hop).
      await context.app.verifiedTokens.revoked(token.id);
      return token;
    },
  }),
);
