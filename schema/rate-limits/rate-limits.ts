import {
  limitsOfCaller,
  RATE_LIMIT_ACTIONS,
  RATE_LIMIT_KEYS,
  type RateLimitStatus,
  readRateLimits,
} from '../../src/domains/rate-limits/index.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { documentRegistrationLimit } from './document-registration.ts';

/** The domain's actions, and the GraphQL layer's own limit. */
const ACTIONS = [...RATE_LIMIT_ACTIONS, 'document_registration'] as const;

const RateLimitActionEnum = enumFromList('RateLimitAction', ACTIONS, {
  description: 'What a rate limit counts.',
  valueDescriptions: {
    cover_art_generation: 'Cover art generations (generateCoverArt), on every surface.',
    agent_submission: 'Submissions through the agent HTTP submit endpoint (POST /api/mcp/submit).',
    fraud_score: 'Fraud scores (fraudScore), per minute and per UTC day.',
    failed_sign_in: 'Failed password sign-ins.',
    sign_up: 'Sign-ups on the web pages.',
    email_code_request: 'Verified-email code requests.',
    email_code_claim: 'Verified-email code claims.',
    partner_call: 'Partner account creation and authorization calls.',
    sandbox_event: 'Test events asked of the sandbox (triggerSandboxEvent), on every surface.',
    document_registration: 'GraphQL documents registered by hash (Automatic Persisted Queries).',
  },
});

const RateLimitKeyEnum = enumFromList('RateLimitKey', RATE_LIMIT_KEYS, {
  description: 'Whose counter a rate limit keeps.',
  valueDescriptions: {
    account: "The caller's account.",
    email_address: "The account's email address (counted whether or not the address has an account).",
    ip_address: 'The IP address the request came from, as the service sees it.',
  },
});

const RateLimitStatusRef = builder
  .objectRef<RateLimitStatus<(typeof ACTIONS)[number]>>('RateLimitStatus')
  .implement({
    description:
      'One rate limit that applies to the caller, as the shared limiter holds it now. Reading it spends ' +
      'nothing. Fixed windows: a window starts with the first point spent and its points come back whole ' +
      'when it ends.',
    fields: (t) => ({
      name: t.exposeString('name', {
        description: 'The policy name, as the RateLimit-Policy and RateLimit response headers name it.',
      }),
      action: t.expose('action', { type: RateLimitActionEnum, description: 'What the limit counts.' }),
      keyedBy: t.expose('keyedBy', { type: RateLimitKeyEnum, description: 'Whose counter it keeps.' }),
      appliesTo: t.exposeString('appliesTo', { description: 'What counts against it, in a sentence.' }),
      quota: t.exposeInt('quota', { description: 'Points per window (the header field `q`).' }),
      windowSeconds: t.exposeInt('windowSeconds', {
        description: 'The window, in seconds (the header field `w`).',
      }),
      remaining: t.exposeInt('remaining', {
        description: 'Points left in the current window (the header field `r`).',
      }),
      resetSeconds: t.exposeInt('resetSeconds', {
        nullable: true,
        description:
          'Seconds until the points come back (the header field `t`); null when nothing has been spent. ' +
          'The daily fraud-score quota always resets at midnight UTC.',
      }),
      resetsAt: t.expose('resetsAt', {
        type: 'DateTime',
        nullable: true,
        description: 'When the points come back: now plus resetSeconds; null when nothing has been spent.',
      }),
    }),
  });

/** The limits of the signed-in caller, read without spending. */
async function callerRateLimits(context: Context) {
  const principal = requirePrincipal(context);
  const { config, rateLimits } = context.app;
  const now = new Date();
  const limits = await limitsOfCaller(
    context.em,
    {
      accountId: principal.accountId,
      ip: context.client.ip,
      fraud: principal.scopes.has('svc:fraud')
        ? { perMinute: config.FRAUD_RATE_LIMIT_PER_MINUTE, perDay: config.FRAUD_DAILY_QUOTA }
        : null,
    },
    now,
  );
  return readRateLimits(rateLimits, [...limits, documentRegistrationLimit(principal.accountId)], now);
}

builder.queryField('rateLimits', (t) =>
  t.field({
    type: [RateLimitStatusRef],
    // Any token of the caller's (svc:mcp or svc:fraud): each sees the limits its calls spend.
    authScopes: { $any: { scope: 'svc:mcp', $any: { scope: 'svc:fraud' } } },
    description:
      'Every rate limit that applies to the caller, with its budget, window, what is left and when it ' +
      "resets: the account's own, those of its email address, and those of the caller's IP address that " +
      'the sign-in, sign-up, verified-email and partner flows spend (needs a token with svc:mcp or ' +
      'svc:fraud; the fraud-score limits only with svc:fraud). Reading them spends nothing and counts ' +
      'against no limit.',
    resolve: (_root, _args, context) => callerRateLimits(context),
  }),
);
