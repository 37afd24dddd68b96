import type { EntityManager } from '@mikro-orm/postgresql';
import type { CardDetails, PaymentProvider } from './port.ts';

export interface PaymentRecord {
  accountId: string;
  reference: string;
  kind: 'checkout' | 'auto_reload';
  credits: number;
  amountCents: number;
}

/**
 * Claims a payment reference in the caller's transaction; false when it is taken. A concurrent claim
 * of the same reference waits on the unique index until the first commits, then finds it taken: that
 * is what makes crediting exactly-once (docs/credits.md).
 */
export async function recordPayment(em: EntityManager, payment: PaymentRecord): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into payments (id, account_id, reference, kind, credits, amount_cents, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, now())
     on conflict (reference) do nothing returning id`,
    [payment.accountId, payment.reference, payment.kind, payment.credits, payment.amountCents],
  );
  return rows.length > 0;
}

/** Saves (or refreshes) a card for off-session charges. */
export async function saveCard(
  em: EntityManager,
  provider: PaymentProvider,
  accountId: string,
  card: CardDetails,
): Promise<void> {
  await em.execute(
    `insert into saved_cards (id, account_id, provider, payment_method_id, customer_id, brand, last4, exp_month, exp_year, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, now())
     on conflict (account_id, payment_method_id) do update set created_at = now()`,
    [
      accountId,
      provider,
      card.paymentMethodId,
      card.customerId,
      card.brand,
      card.last4,
      card.expMonth,
      card.expYear,
    ],
  );
}
