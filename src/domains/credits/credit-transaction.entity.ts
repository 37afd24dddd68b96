import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

export const CREDIT_TRANSACTION_TYPES = ['grant', 'purchase', 'debit', 'refund', 'auto_reload'] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

/** One row of the credits ledger. `amount` is signed: debits are negative. */
export const CreditTransaction = defineEntity({
  name: 'CreditTransaction',
  tableName: 'credit_transactions',
  properties: {
    id: columns.id(),
    /** Ledger order within an account (a bigserial: unique and increasing). */
    seq: p.bigint('number').autoincrement().unique(),
    account: () => owningAccount(),
    type: p.enum(CREDIT_TRANSACTION_TYPES),
    amount: p.integer(),
    balanceAfter: p.integer(),
    ref: p.string().length(200).nullable(),
    createdAt: columns.createdAt(),
  },
  indexes: [{ properties: ['account', 'seq'] }],
});

export type CreditTransaction = InferEntity<typeof CreditTransaction>;
