import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

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
    id: columns.id(),
    account: () => owningAccount().index(),
    reference: p.string().length(255).unique(),
    kind: p.enum(PAYMENT_KINDS),
    credits: p.integer(),
    amountCents: p.integer(),
    createdAt: columns.createdAt(),
  },
});
export type Payment = InferEntity<typeof Payment>;
