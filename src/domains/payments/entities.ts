import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/account.entity.ts';

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export const CHECKOUT_UI_MODES = ['hosted', 'embedded'] as const;
export type CheckoutUiMode = (typeof CHECKOUT_UI_MODES)[number];
export const CHECKOUT_STATUSES = ['open', 'completed', 'declined', 'expired'] as const;
export const PAYMENT_KINDS = ['checkout', 'auto_reload'] as const;

/**
 * A checkout we opened with the payment provider. What it buys (credits, amount) is decided here, at
 * creation, and is what a completion event grants: the event only says which session was paid.
 */
export const CheckoutSession = defineEntity({
  name: 'CheckoutSession',
  tableName: 'checkout_sessions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    account: () => p.manyToOne(Account).deleteRule('cascade').index(),
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
    createdAt: p.datetime().onCreate(() => new Date()),
    completedAt: p.datetime().nullable(),
  },
});
export type CheckoutSession = InferEntity<typeof CheckoutSession>;

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

/** A card the account saved at checkout, for off-session charges (auto-reload). Never the number. */
export const SavedCard = defineEntity({
  name: 'SavedCard',
  tableName: 'saved_cards',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    account: () => p.manyToOne(Account).deleteRule('cascade').index(),
    provider: p.enum(PAYMENT_PROVIDERS),
    paymentMethodId: p.string().length(255),
    customerId: p.string().length(255).nullable(),
    brand: p.string().length(30),
    last4: p.string().length(4),
    expMonth: p.integer(),
    expYear: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['account', 'paymentMethodId'] }],
});
export type SavedCard = InferEntity<typeof SavedCard>;

/** The provider's customer for an account (Stripe: one Customer per account). */
export const PaymentCustomer = defineEntity({
  name: 'PaymentCustomer',
  tableName: 'payment_customers',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    provider: p.enum(PAYMENT_PROVIDERS),
    customerId: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['account', 'provider'] }],
});
export type PaymentCustomer = InferEntity<typeof PaymentCustomer>;

export const paymentEntities = [CheckoutSession, Payment, SavedCard, PaymentCustomer];
