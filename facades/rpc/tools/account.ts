import { z } from 'zod';
import { FACTS, pageText } from '../../../schema/facade-facts.ts';
import { CREDITS_FIELDS, PROFILE_FIELDS, RATE_LIMIT_FIELDS } from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolRow } from '../tool.ts';

export const accountTools: ToolRow[] = [
  defineTool({
    name: 'get_profile',
    title: 'Get profile',
    description:
      'The profile of the account that owns the token: id, email, names, creation date, a signed avatar URL ' +
      'and the insider/patron/admin flags. Returns {profile: {...}}.',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetProfile {
        profile: me { ${PROFILE_FIELDS} }
      }
    `,
    aliases: ['profile', 'whoami', 'get_me'],
  }),
  defineTool({
    name: 'get_credits',
    title: 'Get credits',
    description:
      `Credit balance (1 credit = ${FACTS.creditPriceUsd} USD), the most recent ledger transactions (newest first; submission ` +
      'debits carry ref release:<id>) and totals used and purchased.',
    annotations: READ_ONLY,
    args: z.object({
      transactionLimit: z
        .int()
        .min(FACTS.transactionsPage.min)
        .max(FACTS.transactionsPage.max)
        .default(FACTS.transactionsPage.default)
        .describe(
          `How many recent transactions to return, ${pageText(FACTS.transactionsPage, 'in parentheses')}.`,
        ),
    }),
    document: /* GraphQL */ `
      query AgentGetCredits($transactionLimit: Int) {
        credits(transactionLimit: $transactionLimit) { ${CREDITS_FIELDS} }
      }
    `,
    variables: (args) => ({ transactionLimit: args.transactionLimit }),
    select: 'credits',
    aliases: ['credits', 'get_balance', 'balance'],
  }),
  defineTool({
    name: 'get_rate_limits',
    title: 'Get rate limits',
    description:
      'Every rate limit that applies to the caller, read without spending anything: ' +
      '{rate_limits: [{name, action, keyed_by, applies_to, quota, window_seconds, remaining, reset_seconds, ' +
      'resets_at}]}. Limits of the account (cover art, agent submissions, fraud scores with svc:fraud, ' +
      'GraphQL document registration), of its email address and of the IP address the call came from. ' +
      'Call it before a burst of generate_cover_art or submissions; reset_seconds is null when nothing is spent.',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetRateLimits {
        rate_limits: rateLimits { ${RATE_LIMIT_FIELDS} }
      }
    `,
    aliases: ['rate_limits', 'get_limits', 'limits'],
  }),
];
