import { agentLogin } from '../../src/domains/accounts/index.ts';
import {
  type ClaimedToken,
  claimCode,
  codeKey,
  requestChallenge,
} from '../../src/domains/verified-email/index.ts';
import { builder, PUBLIC } from '../builder.ts';

const IssuedAccessTokenRef = builder.objectRef<ClaimedToken>('IssuedAccessToken').implement({
  description:
    'A bearer token issued to an agent, shown this once; it is listed and revocable in developer settings.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken', {
      description: 'The token: send it as Authorization: Bearer.',
    }),
    tokenType: t.exposeString('tokenType', { description: 'Always Bearer.' }),
    scope: t.exposeString('scope', { description: 'Space-separated scopes the token carries.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the token stops working.' }),
  }),
});

interface ChallengeAnswer {
  message: string;
  claimUri: string;
  expiresIn: number;
}

const ChallengeAnswerRef = builder.objectRef<ChallengeAnswer>('VerifiedEmailChallenge').implement({
  description:
    'The same acknowledgement whether or not the address has an account: if it has one, a code is on its way.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What happens next, for a person or an agent.' }),
    claimUri: t.exposeString('claimUri', { description: 'Where to POST the email and the 8-digit code.' }),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds a mailed code stays valid (900).' }),
  }),
});

builder.mutationField('requestVerifiedEmailChallenge', (t) =>
  t.field({
    type: ChallengeAnswerRef,
    authScopes: PUBLIC,
    description:
      'Public: mails a one-time 8-digit code to the address if it has an account (15 minutes, 5 attempts). ' +
      'The answer is the same either way. 429 per IP and per email.',
    args: {
      email: t.arg.string({
        required: true,
        description: 'The account’s email address.',
        validate: { maxLength: 320 },
      }),
      clientName: t.arg.string({
        required: false,
        description: 'Shown in the mail and used as the token’s name in developer settings.',
        validate: { maxLength: 200 },
      }),
      scopes: t.arg.stringList({
        required: false,
        description: 'Scopes of the token (default ["svc:mcp"]).',
        validate: { maxLength: 5 },
      }),
    },
    resolve: async (_root, args, context) => {
      const { expiresIn } = await requestChallenge(context.em, context.app.rateLimits, {
        email: args.email,
        clientName: args.clientName ?? null,
        scopes: args.scopes ?? null,
        ip: context.client.ip,
      });
      return {
        message:
          'If this address has a Tributary account, a one-time 8-digit code is on its way to it. ' +
          'POST the email and the code to claim_uri within expires_in seconds.',
        claimUri: `${context.app.config.PUBLIC_URL}/v1/agent-auth/verified-email/claim`,
        expiresIn,
      };
    },
  }),
);

builder.mutationField('claimVerifiedEmailCode', (t) =>
  t.field({
    type: IssuedAccessTokenRef,
    authScopes: PUBLIC,
    description:
      'Public: exchanges the mailed code for a verified_email bearer token named after the client. ' +
      '400 invalid_code (wrong, expired or used) or too_many_attempts (the fifth wrong code closes the challenge).',
    args: {
      email: t.arg.string({
        required: true,
        description: 'The address the code was mailed to.',
        validate: { maxLength: 320 },
      }),
      code: t.arg.string({
        required: true,
        description: 'The 8 digits from the mail.',
        validate: { maxLength: 20 },
      }),
    },
    resolve: (_root, args, context) =>
      claimCode(
        context.em,
        context.app.rateLimits,
        { key: codeKey(context.app.webhookSecretKey), clock: context.app.clock },
        { email: args.email, code: args.code, ip: context.client.ip },
      ),
  }),
);

builder.mutationField('agentSignIn', (t) =>
  t.field({
    type: IssuedAccessTokenRef,
    authScopes: PUBLIC,
    description:
      'Public (the auth_login tool): an email and password become a 24-hour svc:mcp bearer token, returned ' +
      'once. invalid_credentials (401), account_locked (423), 429 per IP.',
    args: {
      username: t.arg.string({
        required: true,
        description: 'The account’s email address.',
        validate: { maxLength: 320 },
      }),
      password: t.arg.string({
        required: true,
        description: 'The account’s password.',
        validate: { maxLength: 1000 },
      }),
    },
    resolve: (_root, args, context) =>
      agentLogin(context.em, context.app.rateLimits, {
        username: args.username,
        password: args.password,
        ip: context.client.ip,
        now: context.app.clock.now(),
      }),
  }),
);
