import { z } from 'zod';
import {
  ISSUED_TOKEN_FIELDS,
  PARTNER_AUTHORIZATION_FIELDS,
  PARTNER_CLIENT_ARGUMENTS,
  PARTNER_CLIENT_PARAMETERS,
} from '../../selections.ts';
import { defineTool, type ToolAnnotations, type ToolRow } from '../tool.ts';

/** Creates an account or a code: not read-only, not idempotent, nothing outside Tributary. */
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

const clientArgs = {
  email: z.string().max(320).describe('The account’s email address.'),
  password: z.string().max(1000).describe('The account’s password (10 to 200 characters).'),
  client_id: z.string().max(200).describe('The partner’s allowlisted client_id.'),
  redirect_uri: z.string().max(2000).describe('The redirect URI registered for the partner.'),
  code_challenge: z.string().max(200).optional().describe('PKCE S256 challenge (required).'),
  code_challenge_method: z.string().max(20).optional().describe('S256 (required).'),
  scope: z.string().max(200).optional().describe('svc:mcp (the default).'),
  provenance: z.string().max(100).optional().describe('Accepted; the partner’s registered tag wins.'),
};

type ClientArgs = z.output<z.ZodObject<typeof clientArgs>>;

const clientVariables = (args: ClientArgs) => ({
  email: args.email,
  password: args.password,
  clientId: args.client_id,
  redirectUri: args.redirect_uri,
  codeChallenge: args.code_challenge ?? null,
  codeChallengeMethod: args.code_challenge_method ?? null,
  scope: args.scope ?? null,
  provenance: args.provenance ?? null,
});

/** Tools that run without a token: they are how an agent gets one. */
export const authTools: ToolRow[] = [
  defineTool({
    name: 'auth_login',
    title: 'Sign in',
    description:
      'Sign in with the account’s email (username) and password: returns access_token (svc:mcp, 24 hours), ' +
      'shown this once. Pass it as Authorization: Bearer, or as the access_token argument of any tool. ' +
      'It is listed and revocable in developer settings. Errors: invalid_credentials, account_locked. No token needed.',
    annotations: WRITES,
    args: z.object({
      username: z.string().max(320).describe('The account’s email address.'),
      password: z.string().max(1000).describe('The account’s password.'),
    }),
    document: /* GraphQL */ `
      mutation AgentAuthLogin($username: String!, $password: String!) {
        signedIn: agentSignIn(username: $username, password: $password) { ${ISSUED_TOKEN_FIELDS} }
      }
    `,
    variables: (args) => ({ username: args.username, password: args.password }),
    select: 'signedIn',
    aliases: ['login', 'sign_in'],
    public: true,
  }),
  defineTool({
    name: 'create_account',
    title: 'Create an account (partners)',
    description:
      'Allowlisted partners: create an account and get a one-shot authorization_code (60 s) to exchange at ' +
      'POST /v1/auth/token with your code_verifier. PKCE S256 required. Errors: email_taken, weak_password, ' +
      'invalid_client, pkce_required. No token needed.',
    annotations: WRITES,
    args: z.object({
      ...clientArgs,
      first_name: z.string().max(200).optional().describe('Given name.'),
      last_name: z.string().max(200).optional().describe('Family name.'),
    }),
    document: /* GraphQL */ `
      mutation AgentCreateAccount(${PARTNER_CLIENT_PARAMETERS}, $firstName: String, $lastName: String) {
        created: createPartnerAccount(${PARTNER_CLIENT_ARGUMENTS}, firstName: $firstName, lastName: $lastName) {
          ${PARTNER_AUTHORIZATION_FIELDS}
        }
      }
    `,
    variables: (args) => ({
      ...clientVariables(args),
      firstName: args.first_name ?? null,
      lastName: args.last_name ?? null,
    }),
    select: 'created',
    public: true,
  }),
  defineTool({
    name: 'password_authorize',
    title: 'Authorize an account by password (partners)',
    description:
      'Allowlisted partners: check an existing account’s email and password and get a one-shot ' +
      'authorization_code (60 s) for POST /v1/auth/token. PKCE S256 required. Errors: invalid_credentials, ' +
      'account_locked, invalid_client, pkce_required. No token needed.',
    annotations: WRITES,
    args: z.object(clientArgs),
    document: /* GraphQL */ `
      mutation AgentPasswordAuthorize(${PARTNER_CLIENT_PARAMETERS}) {
        authorized: authorizePartnerAccount(${PARTNER_CLIENT_ARGUMENTS}) { ${PARTNER_AUTHORIZATION_FIELDS} }
      }
    `,
    variables: clientVariables,
    select: 'authorized',
    public: true,
  }),
];
