import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';
import { PAYMENT_PROVIDERS } from './port.ts';

export const CHECKOUT_UI_MODES = ['hosted', 'embedded'] as const;
export type CheckoutUiMode = (typeof CHECKOUT_UI_MODES)[number];
export const CHECKOUT_STATUSES = ['open', 'completed', 'declined', 'expired'] as const;

/**
 * A checkout we opened with the payment provider. What it buys (credits, amount) is decided here, at
 * creation, and is what a completion event grants: the event only says which session was paid.
 */
export const CheckoutSession = defineEntity({
  name: 'CheckoutSession',
  tableName: 'checkout_sessions',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    provider: p.enum(PAYMENT_PROVIDERS),
    /** The provider's id (`cs_...`): the `sessionId` callers see and the ledger ref `checkout:<id>`. */
    providerSessionId: p.string().length(255).unique(),
    uiMode: p.enum(CHECKOUT_UI_MODES),
    credits: p.integer(),
    amountCents: p.integer(),
    currency: p.string().length(3),
    packageId: p.string().length(50).nullable(),
    savePaymentMethod: p.boolean(),
    successPath: p.string().length(2000).nullable(),
    /** A partner tag attributing the purchase (agent calls), as releases carry. */
    provenance: p.string().length(100).nullable(),
    status: p.enum(CHECKOUT_STATUSES).default('open'),
    /** Sandbox embedded mode: SHA-256 of the client secret's random part. */
    clientSecretHash: p.string().length(64).nullable(),
    expiresAt: p.datetime(),
    createdAt: columns.createdAt(),
    completedAt: p.datetime().nullable(),
  },
});
export type CheckoutSession = InferEntity<typeof CheckoutSession>;
