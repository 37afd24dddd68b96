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
        profile: me {
          id
          email
          first_name: firstName
          last_name: lastName
          created_at: createdAt
          avatar_url: avatarUrl
          is_insider: isInsider
          is_patron: isPatron
          is_admin: isAdmin
        }
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
        credits(transactionLimit: $transactionLimit) {
          balance
          updatedAt
          transactions {
            id
            type
            amount
            balance_after: balanceAfter
            created_at: createdAt
            ref
          }
          aggregates {
            usedTotal
            purchasedTotal
          }
        }
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
];
