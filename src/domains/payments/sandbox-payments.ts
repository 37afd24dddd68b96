import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { CardDetails, CompletedSession, OffSessionResult, PaymentsPort } from './port.ts';

/** A checkout stays payable for 24 hours, as Stripe's default. */
export const CHECKOUT_LIFETIME_MS = 24 * 3600 * 1000;
export const SANDBOX_PUBLISHABLE_KEY = 'pk_sandbox_tributary';

/**
 * Test cards of the sandbox (Stripe's numbers): 4242… pays, and saved it charges off-session; 3184
 * needs authentication off-session; 0002 is declined.
 */
export const SANDBOX_CARDS: Record<string, 'pays' | 'declined' | 'authentication_required'> = {
  '4242424242424242': 'pays',
  '4000002760003184': 'authentication_required',
  '4000000000000002': 'declined',
};

const token = () => randomBytes(16).toString('base64url');
export const hashClientSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The payments port with no processor behind it (the default): sessions are pages of ours
 * (/sandbox/checkout/{id}); paying there signs a Stripe-format completion event with a key derived from
 * the service's secret key and hands it to the same handler real events go through.
 */
export function createSandboxPayments(options: { publicUrl: string; secretKey: Uint8Array }): PaymentsPort {
  const webhookSecret = `whsec_${createHmac('sha256', options.secretKey).update('sandbox payment events').digest('base64url')}`;
  return {
    provider: 'sandbox',
    publishableKey: SANDBOX_PUBLISHABLE_KEY,
    webhookSecret,
    createCustomer: async () => null,
    openCheckout: async (request) => {
      const providerSessionId = `cs_sandbox_${token()}`;
      const clientSecret = request.uiMode === 'embedded' ? `${providerSessionId}_secret_${token()}` : null;
      return {
        providerSessionId,
        url:
          request.uiMode === 'hosted' ? `${options.publicUrl}/sandbox/checkout/${providerSessionId}` : null,
        clientSecret,
        clientSecretHash: clientSecret ? hashClientSecret(clientSecret) : null,
        expiresAt: new Date(Date.now() + CHECKOUT_LIFETIME_MS),
      };
    },
    savedCardOf: async (session: CompletedSession): Promise<CardDetails | null> => {
      const intent = session.payment_intent;
      if (!intent || typeof intent !== 'object') return null;
      return cardOfIntent(intent);
    },
    chargeOffSession: async (charge): Promise<OffSessionResult> => {
      const behaviour = SANDBOX_CARDS[sandboxCardNumber(charge.paymentMethodId) ?? ''];
      if (behaviour === 'pays') return { outcome: 'succeeded', paymentId: `pi_sandbox_${token()}` };
      if (behaviour === 'authentication_required')
        return {
          outcome: 'authentication_required',
          reason: 'The card requires authentication (3-D Secure); an off-session charge cannot complete it.',
        };
      return { outcome: 'declined', reason: 'Your card was declined.' };
    },
  };
}

/** Sandbox payment methods carry the test card's number: `pm_sandbox_<number>_<random>`. */
export function sandboxPaymentMethodId(cardNumber: string): string {
  return `pm_sandbox_${cardNumber}_${token()}`;
}

function sandboxCardNumber(paymentMethodId: string): string | null {
  return /^pm_sandbox_(\d{16})_/.exec(paymentMethodId)?.[1] ?? null;
}

/** Card details from a PaymentIntent whose payment_method is expanded (Stripe's shape). */
export function cardOfIntent(intent: Record<string, unknown>): CardDetails | null {
  const method = intent.payment_method as { id?: string; card?: Record<string, unknown> } | null | undefined;
  const card = method?.card;
  if (!method?.id || !card) return null;
  const customer = intent.customer;
  return {
    paymentMethodId: method.id,
    customerId: typeof customer === 'string' ? customer : ((customer as { id?: string } | null)?.id ?? null),
    brand: String(card.brand ?? 'unknown'),
    last4: String(card.last4 ?? '').slice(-4),
    expMonth: Number(card.exp_month ?? 0),
    expYear: Number(card.exp_year ?? 0),
  };
}
