import { CREDITS_FIELDS, PROFILE_FIELDS, RATE_LIMIT_FIELDS } from '../../selections.ts';
import { integer, query, type RestRoute } from '../route.ts';

export const accountRoutes: RestRoute[] = [
  {
    operationId: 'getProfile',
    method: 'GET',
    path: '/me',
    summary: 'The profile of the account that owns the token',
    tag: 'Profile and credits',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetProfile {
        profile: me { ${PROFILE_FIELDS} }
      }
    `,
  },
  {
    operationId: 'getCredits',
    method: 'GET',
    path: '/me/credits',
    summary: 'Credit balance, recent ledger transactions and totals',
    tag: 'Profile and credits',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetCredits($transactionLimit: Int) {
        credits(transactionLimit: $transactionLimit) { ${CREDITS_FIELDS} }
      }
    `,
    variables: {
      transactionLimit: query('transactions', integer, 'How many transactions to return, newest first.', {
        minimum: 0,
        maximum: 100,
      }),
    },
    select: 'credits',
  },
  {
    operationId: 'getRateLimits',
    method: 'GET',
    path: '/rate-limits',
    summary:
      'Every rate limit that applies to the caller: budget, window, what is left and when it resets (the ' +
      "account's, its email address's and the caller's IP address's); reading spends nothing",
    tag: 'Profile and credits',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetRateLimits {
        rate_limits: rateLimits { ${RATE_LIMIT_FIELDS} }
      }
    `,
  },
];
