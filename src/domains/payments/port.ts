/** The payment providers behind the port. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** What a checkout buys, decided by us before the provider hears of it. */
export interface CheckoutRequest {
  /** Our row id: the provider's idempotency key is derived from it. */
  checkoutId: string;
  accountId: string;
  email: string;
  credits: number;
  amountCents: number;
  currency: string;
  packageId: string | null;
  uiMode: 'hosted' | 'embedded';
  savePaymentMethod: boolean;
  /** Absolute URL the payer returns to (already checked against open redirects). */
  returnUrl: string;
}

export interface OpenedCheckout {
  providerSessionId: string;
  /** Hosted mode: the page to send the payer to. */
  url: string | null;
  /** Embedded mode: what the page mounting the checkout needs. */
  clientSecret: string | null;
  /** Sandbox only: SHA-256 of the client secret, so the embedded page can find its session. */
  clientSecretHash: string | null;
  expiresAt: Date;
}

export interface CardDetails {
  paymentMethodId: string;
  customerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface OffSessionCharge {
  /** Our id for this reload: the provider's idempotency key. */
  reloadId: string;
  accountId: string;
  amountCents: number;
  /** What the charge buys: carried in the provider's metadata, so its success event can credit it. */
  credits: number;
  currency: string;
  paymentMethodId: string;
  customerId: string | null;
  description: string;
}

export type OffSessionResult =
  | { outcome: 'succeeded'; paymentId: string }
  | { outcome: 'declined' | 'authentication_required' | 'failed'; reason: string };

/** A checkout.session object as a completion event carries it (Stripe's shape; the sandbox's too). */
export interface CompletedSession {
  id: string;
  payment_status?: string | null;
  amount_total?: number | null;
  currency?: string | null;
  customer?: string | { id: string } | null;
  payment_intent?: string | Record<string, unknown> | null;
}

/**
 * The payment processor. Both adapters speak Stripe's event format and signature scheme, so one
 * handler (handle-event.ts) verifies and applies every payment event.
 */
export interface PaymentsPort {
  provider: PaymentProvider;
  publishableKey: string;
  /** The secret payment events are signed with (Stripe-Signature, v1 scheme). */
  webhookSecret: string;
  /** The provider's customer for an account, created once (null when the provider has none). */
  createCustomer(accountId: string, email: string): Promise<string | null>;
  openCheckout(request: CheckoutRequest, customerId: string | null): Promise<OpenedCheckout>;
  /** The card a paid session saved for later (only asked when the checkout asked to save it). */
  savedCardOf(session: CompletedSession): Promise<CardDetails | null>;
  chargeOffSession(charge: OffSessionCharge): Promise<OffSessionResult>;
}
