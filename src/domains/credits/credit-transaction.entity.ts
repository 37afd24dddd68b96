import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity.ts';

export const CREDIT_TRANSACTION_TYPES = ['grant', 'purchase', 'debit', 'refund', 'auto_reload'] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

/** One row of the credits ledger. `amount` is signed: debits are negative. */
export const CreditTransaction = defineEntity({
  name: 'CreditTransaction',
  tableName: 'credit_transactions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Ledger order within an account (a bigserial: unique and increasing). */
    seq: p.bigint('number').autoincrement().unique(),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    type: p.enum(CREDIT_TRANSACTION_TYPES),
    amount: p.integer(),
    balanceAfter: p.integer(),
    ref: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['account', 'seq'] }],
});

export type CreditTransaction = InferEntity<typeof CreditTransaction>;
