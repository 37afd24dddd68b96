import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';
import { PAYMENT_PROVIDERS } from './port.ts';

/** A card the account saved at checkout, for off-session charges (auto-reload). Never the number. */
export const SavedCard = defineEntity({
  name: 'SavedCard',
  tableName: 'saved_cards',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    provider: p.enum(PAYMENT_PROVIDERS),
    paymentMethodId: p.string().length(255),
    customerId: p.string().length(255).nullable(),
    brand: p.string().length(30),
    last4: p.string().length(4),
    expMonth: p.integer(),
    expYear: p.integer(),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['account', 'paymentMethodId'] }],
});
export type SavedCard = InferEntity<typeof SavedCard>;
