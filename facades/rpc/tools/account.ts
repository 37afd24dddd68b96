import { z } from 'zod';
import { FACTS, pageText } from '../../../schema/facade-facts.ts';
import { CREDITS_FIELDS, PROFILE_FIELDS } from '../../selections.ts';
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
];
