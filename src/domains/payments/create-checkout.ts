import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import { Account, getAccount } from '../accounts/index.ts';
import { BUNDLES, CREDIT_PRICE_CENTS, CUSTOM_CHECKOUT_CREDITS } from '../credits/index.ts';
import { CheckoutSession, type CheckoutUiMode } from './checkout-session.entity.ts';
import { PaymentCustomer } from './payment-customer.entity.ts';
import type { PaymentsPort } from './port.ts';
import { resolveSuccessUrl } from './success-url.ts';

export interface CheckoutInput {
  credits?: number | null;
  packageId?: string | null;
  savePaymentMethod?: boolean | null;
  uiMode?: CheckoutUiMode | null;
  successPath?: string | null;
  provenance?: string | null;
}

export interface CheckoutView {
  uiMode: CheckoutUiMode;
  sessionId: string;
  url: string | null;
  clientSecret: string | null;
  publishableKey: string;
  amount: number;
  currency: string;
  credits: number;
  packageId: string | null;
  expiresAt: Date;
}

/**
 * A checkout's body as REST shows it: `packageId` belongs to a bundle's checkout only, so a custom
 * amount's body leaves it out (rather than carrying `null`). The same object when there is nothing to drop.
 */
export function checkoutBody<T>(body: T): T | Omit<T, 'packageId'> {
  if (!body || typeof body !== 'object' || (body as { packageId?: unknown }).packageId !== null) return body;
  const { packageId: _customAmount, ...rest } = body as T & { packageId: null };
  return rest;
}

/** What the checkout sells: a bundle (`packageId` wins) or 1..1000 credits at 1 USD each. */
export function checkoutItem(input: Pick<CheckoutInput, 'credits' | 'packageId'>) {
  if (input.packageId != null) {
    const bundle = BUNDLES.find((b) => b.packageId === input.packageId);
    if (!bundle) {
      const known = BUNDLES.map((b) => b.packageId).join(', ');
      throw invalidRequest(
        `Unknown package_id "${input.packageId}"; use one of ${known} (GET /v1/pricing).`,
        [{ path: 'package_id', message: `one of ${known}` }],
      );
    }
    return { credits: bundle.credits, amountCents: bundle.priceCents, packageId: bundle.packageId };
  }
  const { min, max } = CUSTOM_CHECKOUT_CREDITS;
  const credits = input.credits;
  if (credits == null || !Number.isInteger(credits) || credits < min || credits > max) {
    throw invalidRequest(`Send credits (an integer ${min}..${max}, 1 USD each) or a package_id.`, [
      { path: 'credits', message: `integer ${min}..${max}` },
    ]);
  }
  return { credits, amountCents: credits * CREDIT_PRICE_CENTS, packageId: null };
}

/**
 * Opens a checkout with the payment provider and records it. Creates no credits: those come with the
 * provider's completion event (handle-event.ts).
 */
export async function createCheckout(
  em: EntityManager,
  payments: PaymentsPort,
  publicUrl: string,
  accountId: string,
  input: CheckoutInput,
): Promise<CheckoutView> {
  const item = checkoutItem(input);
  const uiMode = input.uiMode ?? 'embedded';
  const successPath = input.successPath ?? null;
  const returnUrl = resolveSuccessUrl(publicUrl, successPath);
  const account = await getAccount(em, accountId);
  const customerId = await customerFor(em, payments, accountId, account.email);
  const checkout = em.create(CheckoutSession, {
    id: randomUUID(),
    account: em.getReference(Account, accountId),
    provider: payments.provider,
    providerSessionId: '',
    uiMode,
    credits: item.credits,
    amountCents: item.amountCents,
    currency: 'USD',
    packageId: item.packageId,
    savePaymentMethod: input.savePaymentMethod === true,
    successPath,
    provenance: input.provenance ?? null,
    expiresAt: new Date(),
  });
  const opened = await payments.openCheckout(
    {
      checkoutId: checkout.id,
      accountId,
      email: account.email,
      credits: item.credits,
      amountCents: item.amountCents,
      currency: 'USD',
      packageId: item.packageId,
      uiMode,
      savePaymentMethod: checkout.savePaymentMethod,
      returnUrl,
    },
    customerId,
  );
  checkout.providerSessionId = opened.providerSessionId;
  checkout.clientSecretHash = opened.clientSecretHash;
  checkout.expiresAt = opened.expiresAt;
  await em.flush();
  return {
    uiMode,
    sessionId: opened.providerSessionId,
    url: opened.url,
    clientSecret: opened.clientSecret,
    publishableKey: payments.publishableKey,
    amount: item.amountCents,
    currency: 'USD',
    credits: item.credits,
    packageId: item.packageId,
    expiresAt: opened.expiresAt,
  };
}

/** The provider's customer of the account, created once (the idempotency key makes racing creations one). */
export async function customerFor(
  em: EntityManager,
  payments: PaymentsPort,
  accountId: string,
  email: string,
): Promise<string | null> {
  const known = await em.findOne(PaymentCustomer, { account: accountId, provider: payments.provider });
  if (known) return known.customerId;
  const customerId = await payments.createCustomer(accountId, email);
  if (!customerId) return null;
  await em.execute(
    `insert into payment_customers (id, account_id, provider, customer_id, created_at)
     values (gen_random_uuid(), ?, ?, ?, now()) on conflict (account_id, provider) do nothing`,
    [accountId, payments.provider, customerId],
  );
  return customerId;
}
