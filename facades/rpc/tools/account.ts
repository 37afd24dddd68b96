import { z } from 'zod';
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
    aliases: ['profile', 'whoami', 'get_me'],
  }),
  defineTool({
    name: 'get_credits',
    title: 'Get credits',
    description:
      'Credit balance (1 credit = 1 USD), the most recent ledger transactions (newest first; submission ' +
      'debits carry ref release:<id>) and totals used and purchased.',
    annotations: READ_ONLY,
    args: z.object({
      transactionLimit: z
        .int()
        .min(0)
        .max(100)
        .default(10)
        .describe('How many recent transactions to return, 0..100 (default 10).'),
    }),
    document: /* GraphQL */ `
      query AgentGetCredits($transactionLimit: Int) {
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
    variables: (args) => ({ transactionLimit: args.transactionLimit }),
    select: 'credits',
    aliases: ['credits', 'get_balance', 'balance'],
  }),
];
