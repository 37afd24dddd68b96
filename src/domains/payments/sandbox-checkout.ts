import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import { constantTimeEqual } from '../../platform/crypto.ts';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import { CheckoutSession } from './checkout-session.entity.ts';
import { type EventOutcome, handlePaymentEvent } from './handle-event.ts';
import type { PaymentsPort } from './port.ts';
import { hashClientSecret, SANDBOX_CARDS, sandboxPaymentMethodId } from './sandbox-payments.ts';
import { resolveSuccessUrl } from './success-url.ts';

/** A sandbox checkout by its session id (the capability in the hosted page's URL). */
export async function findSandboxCheckout(em: EntityManager, sessionId: string): Promise<CheckoutSession> {
  const checkout = /^cs_sandbox_[\w-]{10,40}$/.test(sessionId)
    ? await em.findOne(CheckoutSession, { providerSessionId: sessionId, provider: 'sandbox' })
    : null;
  if (!checkout) throw notFound('No such checkout.', 'checkout_not_found');
  return checkout;
}

/** The embedded page's lookup: the client secret names its session. */
export async function findSandboxCheckoutBySecret(
  em: EntityManager,
  clientSecret: string,
): Promise<CheckoutSession> {
  const sessionId = /^(cs_sandbox_[\w-]+)_secret_[\w-]+$/.exec(clientSecret)?.[1];
  const checkout = sessionId ? await findSandboxCheckout(em, sessionId).catch(() => null) : null;
  if (
    !checkout?.clientSecretHash ||
    !constantTimeEqual(checkout.clientSecretHash, hashClientSecret(clientSecret))
  )
    throw notFound('No such checkout.', 'checkout_not_found');
  return checkout;
}

export type SandboxPayResult =
  | { paid: true; outcome: EventOutcome; returnUrl: string }
  | { paid: false; reason: string };

/**
 * Pays a sandbox checkout with a test card: signs the completion event Stripe would send and hands it
 * to the one event handler. Paying twice (a double click, a reload) credits once.
 */
export async function paySandboxCheckout(
  em: EntityManager,
  payments: PaymentsPort,
  publicUrl: string,
  sessionId: string,
  form: { cardNumber: string; saveCard: boolean },
): Promise<SandboxPayResult> {
  const checkout = await findSandboxCheckout(em, sessionId);
  if (checkout.status === 'declined' || checkout.status === 'expired' || checkout.expiresAt < new Date())
    throw invalidRequest(`This checkout is ${checkout.status === 'open' ? 'expired' : checkout.status}.`);
  const number = form.cardNumber.replace(/[\s-]/g, '');
  const behaviour = SANDBOX_CARDS[number];
  if (!behaviour) throw invalidRequest('Use a sandbox test card, e.g. 4242 4242 4242 4242.');
  if (behaviour === 'declined') return { paid: false, reason: 'Your card was declined.' };
  const save = checkout.savePaymentMethod || form.saveCard;
  if (save && !checkout.savePaymentMethod) {
    checkout.savePaymentMethod = true;
    await em.flush();
  }
  const payload = JSON.stringify(completionEvent(checkout, number, save));
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: payments.webhookSecret });
  const outcome = await handlePaymentEvent(em, payments, payload, signature);
  return { paid: true, outcome, returnUrl: resolveSuccessUrl(publicUrl, checkout.successPath) };
}

/** Decline: the session is closed unpaid; nothing is credited. */
export async function declineSandboxCheckout(em: EntityManager, sessionId: string): Promise<void> {
  const checkout = await findSandboxCheckout(em, sessionId);
  await em.nativeUpdate(CheckoutSession, { id: checkout.id, status: 'open' }, { status: 'declined' });
}

function completionEvent(checkout: CheckoutSession, cardNumber: string, save: boolean) {
  const now = Math.floor(Date.now() / 1000);
  const paymentMethod = {
    id: save ? sandboxPaymentMethodId(cardNumber) : `pm_sandbox_once_${randomBytes(8).toString('hex')}`,
    object: 'payment_method',
    card: {
      brand: 'visa',
      last4: cardNumber.slice(-4),
      exp_month: 12,
      exp_year: new Date().getFullYear() + 3,
    },
  };
  return {
    id: `evt_sandbox_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: now,
    livemode: false,
    data: {
      object: {
        id: checkout.providerSessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        status: 'complete',
        amount_total: checkout.amountCents,
        currency: checkout.currency.toLowerCase(),
        customer: null,
        payment_intent: {
          id: `pi_sandbox_${randomBytes(12).toString('hex')}`,
          object: 'payment_intent',
          status: 'succeeded',
          customer: null,
          payment_method: paymentMethod,
        },
      },
    },
  };
}
