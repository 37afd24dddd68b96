import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import { AppError, invalidRequest } from '../../platform/errors.ts';
import { Account } from '../accounts/index.ts';
import { postLedgerEntry } from '../credits/index.ts';
import { creditReload } from './auto-reload-job.ts';
import { CheckoutSession } from './checkout-session.entity.ts';
import { Payment } from './payment.entity.ts';
import type { CardDetails, CompletedSession, PaymentsPort } from './port.ts';
import { recordPayment, saveCard } from './record-payment.ts';

/** Signed events older (or newer) than this are refused: a captured event cannot be replayed later. */
export const EVENT_TOLERANCE_SECONDS = 300;

const COMPLETION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

export const PAYMENT_EVENT_RESULTS = ['credited', 'duplicate', 'ignored', 'expired'] as const;

export interface EventOutcome {
  eventId: string;
  type: string;
  /** `credited` once per payment; `duplicate` for every later delivery of it; `ignored` otherwise. */
  result: (typeof PAYMENT_EVENT_RESULTS)[number];
  credits?: number;
}

/**
 * Verifies a payment event (Stripe-Signature over the raw body) and applies it. A paid checkout grants
 * its credits exactly once: the payment row (unique reference `checkout:<session>`), the ledger entry
 * (type `purchase`, same ref) and the session's completion commit in one transaction, and a second
 * delivery, concurrent or later, in any order, finds the reference taken and changes nothing.
 */
export async function handlePaymentEvent(
  em: EntityManager,
  payments: PaymentsPort,
  rawBody: Buffer | string,
  signature: string | undefined,
): Promise<EventOutcome> {
  const event = verify(payments, rawBody, signature);
  const base = { eventId: event.id, type: event.type };
  if (event.type === 'payment_intent.succeeded') {
    const credited = await creditReloadIntent(em, event.data.object as unknown as ReloadIntent);
    return credited === null ? { ...base, result: 'ignored' } : { ...base, ...credited };
  }
  if (!event.type.startsWith('checkout.session.')) return { ...base, result: 'ignored' };
  const session = event.data.object as unknown as CompletedSession;
  const checkout = await em.findOne(CheckoutSession, {
    providerSessionId: String(session.id),
    provider: payments.provider,
  });
  // Another deployment sharing the provider account opened it: acknowledged, so the provider does not
  // retry it for days and then disable the endpoint that carries our own payments.
  if (!checkout) return { ...base, result: 'ignored' };
  if (event.type === 'checkout.session.expired') {
    await em.nativeUpdate(CheckoutSession, { id: checkout.id, status: 'open' }, { status: 'expired' });
    return { ...base, result: 'expired' };
  }
  if (!COMPLETION_EVENTS.has(event.type) || session.payment_status !== 'paid')
    return { ...base, result: 'ignored' };
  if (session.amount_total != null && session.amount_total !== checkout.amountCents)
    throw invalidRequest('The paid amount does not match the checkout.', undefined, 'amount_mismatch');
  // A redelivery of a credited payment stops here, before asking the provider anything.
  if (await em.count(Payment, { reference: checkoutReference(checkout) }))
    return { ...base, result: 'duplicate', credits: checkout.credits };
  // Read before the transaction: a provider call never holds a database transaction open.
  const card = checkout.savePaymentMethod ? await payments.savedCardOf(session) : null;
  const credited = await creditCheckout(em, payments, checkout, card);
  return { ...base, result: credited ? 'credited' : 'duplicate', credits: checkout.credits };
}

interface ReloadIntent {
  amount?: number;
  metadata?: Record<string, string> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An off-session reload the provider reports paid (its metadata names our account, job and credits, as
 * the charge set them): credited unless the job already did. This is what credits a charge whose answer
 * the job never received. Other PaymentIntents (checkouts have their own events) are ignored.
 */
async function creditReloadIntent(
  em: EntityManager,
  intent: ReloadIntent,
): Promise<Pick<EventOutcome, 'result' | 'credits'> | null> {
  const { account_id: accountId, reload_id: reloadId, credits: creditsText } = intent.metadata ?? {};
  const credits = Number(creditsText);
  if (!accountId || !UUID.test(accountId) || !reloadId || reloadId.length > 200) return null;
  if (!Number.isSafeInteger(credits) || credits <= 0 || !Number.isSafeInteger(intent.amount)) return null;
  if ((await em.count(Account, { id: accountId })) === 0) return null;
  const credited = await em.transactional((tem) =>
    creditReload(tem, { accountId, reloadId, credits, amountCents: intent.amount as number }),
  );
  return { result: credited ? 'credited' : 'duplicate', credits };
}

/** The payment reference and ledger ref of a checkout: `checkout:<session>`. */
export const checkoutReference = (checkout: CheckoutSession) => `checkout:${checkout.providerSessionId}`;

async function creditCheckout(
  em: EntityManager,
  payments: PaymentsPort,
  checkout: CheckoutSession,
  card: CardDetails | null,
): Promise<boolean> {
  const accountId = checkout.account.id;
  const ref = checkoutReference(checkout);
  return em.transactional(async (tem) => {
    const fresh = await recordPayment(tem, {
      accountId,
      reference: ref,
      kind: 'checkout',
      credits: checkout.credits,
      amountCents: checkout.amountCents,
    });
    if (!fresh) return false;
    await postLedgerEntry(tem, { accountId, type: 'purchase', amount: checkout.credits, ref });
    await tem.nativeUpdate(
      CheckoutSession,
      { id: checkout.id },
      { status: 'completed', completedAt: new Date() },
    );
    if (card) await saveCard(tem, payments.provider, accountId, card);
    return true;
  });
}

function verify(payments: PaymentsPort, rawBody: Buffer | string, signature: string | undefined) {
  if (!signature)
    throw invalidRequest('A Stripe-Signature header is required.', undefined, 'signature_missing');
  try {
    return Stripe.webhooks.constructEvent(
      rawBody,
      signature,
      payments.webhookSecret,
      EVENT_TOLERANCE_SECONDS,
    );
  } catch (error) {
    throw new AppError('invalid_request_error', 'signature_invalid', 'The event signature does not verify.', {
      cause: error,
    });
  }
}
