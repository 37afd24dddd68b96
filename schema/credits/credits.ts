import {
  CREDIT_TRANSACTION_TYPES,
  type CreditsSummary,
  type CreditTransaction,
  DEFAULT_TRANSACTION_LIMIT,
  MAX_TRANSACTION_LIMIT,
  pageOfTransactions,
  readCredits,
} from '../../src/domains/credits/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const CreditTransactionTypeEnum = enumFromList('CreditTransactionType', CREDIT_TRANSACTION_TYPES, {
  description: 'What moved the credits.',
});

const CreditTransactionRef = builder.objectRef<CreditTransaction>('CreditTransaction').implement({
  description: 'One move of credits. Debits have a negative amount.',
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.expose('type', { type: CreditTransactionTypeEnum }),
    amount: t.exposeInt('amount'),
    balanceAfter: t.exposeInt('balanceAfter'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    ref: t.exposeString('ref', {
      nullable: true,
      description: 'What the move was for, e.g. `release:<id>`.',
    }),
  }),
});

const CreditAggregatesRef = builder.objectRef<CreditsSummary['aggregates']>('CreditAggregates').implement({
  description: 'Totals over the whole ledger.',
  fields: (t) => ({
    usedTotal: t.exposeInt('usedTotal'),
    purchasedTotal: t.exposeInt('purchasedTotal'),
  }),
});

const CreditsRef = builder.objectRef<CreditsSummary>('Credits').implement({
  description: 'The credit balance with its most recent ledger moves.',
  fields: (t) => ({
    balance: t.exposeInt('balance'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    transactions: t.field({ type: [CreditTransactionRef], resolve: (summary) => summary.transactions }),
    aggregates: t.field({ type: CreditAggregatesRef, resolve: (summary) => summary.aggregates }),
  }),
});

builder.queryField('credits', (t) =>
  t.field({
    type: CreditsRef,
    authScopes: MCP,
    description: 'Balance, the most recent ledger transactions (newest first) and totals.',
    args: {
      transactionLimit: t.arg.int({
        required: false,
        defaultValue: DEFAULT_TRANSACTION_LIMIT,
        validate: {
          int: true,
          min: [0, { message: `must be between 0 and ${MAX_TRANSACTION_LIMIT}` }],
          max: [MAX_TRANSACTION_LIMIT, { message: `must be between 0 and ${MAX_TRANSACTION_LIMIT}` }],
        },
      }),
    },
    resolve: (_root, args, context) =>
      readCredits(
        context.em,
        requirePrincipal(context).accountId,
        args.transactionLimit ?? DEFAULT_TRANSACTION_LIMIT,
      ),
  }),
);

builder.queryField('creditTransactions', (t) =>
  t.connection(
    {
      type: CreditTransactionRef,
      authScopes: MCP,
      description:
        'The whole ledger, newest first, as a Relay connection with keyset cursors (at most 100 a page, 20 by ' +
        'default): pages do not shift while credits move.',
      resolve: (_root, args, context) =>
        pageOfTransactions(context.em, requirePrincipal(context).accountId, args),
    },
    { description: 'A page of the ledger, newest first.' },
    { description: 'A ledger move with its cursor.' },
  ),
);
