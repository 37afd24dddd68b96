import {
  authorizePartnerAccount,
  createPartnerAccount,
  type PartnerCode,
} from '../../src/domains/partners/index.ts';
import { builder, PUBLIC } from '../builder.ts';
import type { Context } from '../context.ts';

type PartnerAuthorization = PartnerCode & { userId: string; email: string };

const PartnerAuthorizationRef = builder.objectRef<PartnerAuthorization>('PartnerAuthorization').implement({
  description:
    'A one-shot authorization code for an account, for an allowlisted partner: exchange it at the token ' +
    'endpoint (POST /v1/auth/token or /oauth/token) with the matching code_verifier within expiresIn seconds.',
  fields: (t) => ({
    userId: t.exposeID('userId', { description: 'The account the code is for.' }),
    email: t.exposeString('email', { description: 'The account’s email address (normalised).' }),
    authorizationCode: t.exposeString('authorizationCode', {
      description: 'The code: single use, redeemed with grant_type authorization_code.',
    }),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds the code stays valid.' }),
    redirectUri: t.exposeString('redirectUri', {
      description: 'The redirect_uri to send again with the code at the token endpoint.',
    }),
    scope: t.exposeString('scope', { description: 'The scope the token will carry (svc:mcp).' }),
    provenance: t.exposeString('provenance', {
      description:
        'The partner’s provenance tag, put on the account and on every release submitted with the token.',
    }),
  }),
});

const clientArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  email: t.arg.string({
    required: true,
    description: 'The account’s email address.',
    validate: { maxLength: 320 },
  }),
  password: t.arg.string({
    required: true,
    description: 'The account’s password (10 to 200 characters).',
    validate: { maxLength: 1000 },
  }),
  clientId: t.arg.id({
    required: true,
    description: 'The partner’s allowlisted client_id.',
    validate: { maxLength: 200 },
  }),
  redirectUri: t.arg.string({
    required: true,
    description: 'The redirect URI registered for the partner (sent again at the token endpoint).',
    validate: { maxLength: 2000 },
  }),
  codeChallenge: t.arg.string({
    required: false,
    description: 'PKCE: base64url SHA-256 of the code_verifier (43 characters). Required.',
    validate: { maxLength: 200 },
  }),
  codeChallengeMethod: t.arg.string({
    required: false,
    description: 'PKCE method: S256 (the only one accepted). Required.',
    validate: { maxLength: 20 },
  }),
  scope: t.arg.string({
    required: false,
    description: 'svc:mcp (the default).',
    validate: { maxLength: 200 },
  }),
  provenance: t.arg.string({
    required: false,
    description: 'Accepted for compatibility; the partner’s registered tag always wins.',
    validate: { maxLength: 100 },
  }),
});

const clientRequest = (
  context: Context,
  args: {
    clientId: string;
    redirectUri: string;
    codeChallenge?: string | null;
    codeChallengeMethod?: string | null;
    scope?: string | null;
  },
) => ({
  clientId: args.clientId,
  redirectUri: args.redirectUri,
  codeChallenge: args.codeChallenge ?? null,
  codeChallengeMethod: args.codeChallengeMethod ?? null,
  scope: args.scope ?? null,
  ip: context.client.ip,
});

builder.mutationField('createPartnerAccount', (t) =>
  t.field({
    type: PartnerAuthorizationRef,
    authScopes: PUBLIC,
    description:
      'Partners only (public, no token): creates an account with a password, tagged with the partner’s ' +
      'provenance, and returns a one-shot authorization code for it. Errors: email_taken (409), ' +
      'weak_password (422), invalid_client (401), pkce_required (400); 429 per IP and per client_id.',
    args: {
      ...clientArgs(t),
      firstName: t.arg.string({ required: false, description: 'Given name.', validate: { maxLength: 200 } }),
      lastName: t.arg.string({ required: false, description: 'Family name.', validate: { maxLength: 200 } }),
    },
    resolve: (_root, args, context) =>
      createPartnerAccount(context.em, context.app.rateLimits, context.app.authorizationCodes, {
        ...clientRequest(context, args),
        email: args.email,
        password: args.password,
        firstName: args.firstName ?? null,
        lastName: args.lastName ?? null,
      }),
  }),
);

builder.mutationField('authorizePartnerAccount', (t) =>
  t.field({
    type: PartnerAuthorizationRef,
    authScopes: PUBLIC,
    description:
      'Partners only (public, no token): checks an existing account’s email and password and returns a ' +
      'one-shot authorization code. Errors: invalid_credentials (401), account_locked (423), ' +
      'invalid_client (401), pkce_required (400); 429 per IP and per client_id.',
    args: clientArgs(t),
    resolve: (_root, args, context) =>
      authorizePartnerAccount(context.em, context.app.rateLimits, context.app.authorizationCodes, {
        ...clientRequest(context, args),
        email: args.email,
        password: args.password,
      }),
  }),
);
