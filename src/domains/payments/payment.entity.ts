import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity.ts';

export const PAYMENT_KINDS = ['checkout', 'auto_reload'] as const;

/**
 * One payment that granted credits. `reference` is unique (`checkout:<session>`, `autoreload:<id>`):
 * the row and its ledger entry commit together, so a payment credits at most once however often its
 * event arrives.
 */
export const Payment = defineEntity({
  name: 'Payment',
  tableName: 'payments',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    account: () => p.manyToOne(Account).deleteRule('cascade').index(),
    reference: p.string().length(255).unique(),
    kind: p.enum(PAYMENT_KINDS),
    credits: p.integer(),
    amountCents: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Payment = InferEntity<typeof Payment>;
