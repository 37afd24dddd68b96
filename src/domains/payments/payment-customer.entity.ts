import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';
import { PAYMENT_PROVIDERS } from './port.ts';

/** The provider's customer for an account (Stripe: one Customer per account). */
export const PaymentCustomer = defineEntity({
  name: 'PaymentCustomer',
  tableName: 'payment_customers',
  properties: {
    id: columns.id(),
    account: () => owningAccount(),
    provider: p.enum(PAYMENT_PROVIDERS),
    customerId: p.string().length(255),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['account', 'provider'] }],
});
export type PaymentCustomer = InferEntity<typeof PaymentCustomer>;
