import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, invalidRequest, validationFailed } from '../../platform/errors.ts';
import { Account } from '../accounts/index.ts';
import { BUNDLES, CUSTOM_CHECKOUT_CREDITS } from '../credits/index.ts';
import { AutoReloadSetting, type AutoReloadStatus } from './auto-reload-setting.entity.ts';
import { checkoutItem } from './create-checkout.ts';
import { SavedCard } from './saved-card.entity.ts';

/** Below this a threshold makes no sense; above it, a reload could never catch up. */
export const MAX_THRESHOLD_CREDITS = 10_000;
/** Used when auto-reload is first enabled without a package_id or quantity: the smallest bundle. */
export const DEFAULT_RELOAD_PACKAGE = BUNDLES[0]!.packageId;

export interface AutoReloadView {
  enabled: boolean;
  configured: boolean;
  thresholdCredits: number;
  packageId: string | null;
  reloadCredits: number | null;
  reloadAmountCents: number | null;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  lastStatus: AutoReloadStatus | null;
  lastReason: string | null;
  lastTriggeredAt: Date | null;
}

export interface AutoReloadInput {
  enabled: boolean;
  packageId?: string | null;
  quantity?: number | null;
  paymentMethodId?: string | null;
  thresholdCredits?: number | null;
}

export async function readAutoReload(em: EntityManager, accountId: string): Promise<AutoReloadView> {
  const setting = await em.findOne(AutoReloadSetting, { account: accountId }, { disableIdentityMap: true });
  const card = setting?.paymentMethodId
    ? await em.findOne(SavedCard, { account: accountId, paymentMethodId: setting.paymentMethodId })
    : null;
  return {
    enabled: setting?.enabled ?? false,
    configured: setting !== null,
    thresholdCredits: setting?.thresholdCredits ?? 0,
    packageId: setting?.packageId ?? null,
    reloadCredits: setting?.reloadCredits ?? null,
    reloadAmountCents: setting?.reloadAmountCents ?? null,
    card: card
      ? { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }
      : null,
    lastStatus: setting?.lastStatus ?? null,
    lastReason: setting?.lastReason ?? null,
    lastTriggeredAt: setting?.lastTriggeredAt ?? null,
  };
}

/** The account's most recently saved card, or the one named (which must be the account's). */
async function cardFor(em: EntityManager, accountId: string, paymentMethodId: string | null | undefined) {
  if (paymentMethodId) {
    const named = await em.findOne(SavedCard, { account: accountId, paymentMethodId });
    if (!named)
      throw validationFailed('payment_method_id is not a card saved on this account.', [
        { path: 'payment_method_id', message: 'not a saved card of this account' },
      ]);
    return named;
  }
  const [latest] = await em.find(
    SavedCard,
    { account: accountId },
    { orderBy: { createdAt: 'desc' }, limit: 1 },
  );
  return latest ?? null;
}

/**
 * Sets auto-reload. Enabling needs a saved card (409 `saved_card_required` says how to get one); the
 * reload is a bundle (`packageId`, which wins) or 1..1000 credits; the threshold defaults to 0 (reload
 * only when empty). Disabling keeps the configuration.
 */
export async function setAutoReload(
  em: EntityManager,
  accountId: string,
  input: AutoReloadInput,
): Promise<AutoReloadView> {
  const threshold = input.thresholdCredits;
  if (
    threshold != null &&
    (!Number.isInteger(threshold) || threshold < 0 || threshold > MAX_THRESHOLD_CREDITS)
  )
    throw invalidRequest(`threshold_credits must be an integer 0..${MAX_THRESHOLD_CREDITS}.`, [
      { path: 'threshold_credits', message: `integer 0..${MAX_THRESHOLD_CREDITS}` },
    ]);
  if (input.quantity != null && input.packageId == null) {
    const { min, max } = CUSTOM_CHECKOUT_CREDITS;
    if (!Number.isInteger(input.quantity) || input.quantity < min || input.quantity > max)
      throw invalidRequest(`quantity must be an integer ${min}..${max}.`, [
        { path: 'quantity', message: `integer ${min}..${max}` },
      ]);
  }
  const existing = await em.findOne(AutoReloadSetting, { account: accountId });
  const card = await cardFor(em, accountId, input.paymentMethodId);
  if (input.enabled && !card)
    throw new AppError(
      'conflict_error',
      'saved_card_required',
      'Auto-reload needs a saved card. Buy credits once with save_payment_method: true (POST /v1/credits/checkout, or the create_credit_checkout_session tool), then enable auto-reload.',
      { details: [{ path: 'payment_method_id', message: 'no saved card on this account' }] },
    );
  const chosen =
    input.packageId != null || input.quantity != null
      ? checkoutItem({ packageId: input.packageId ?? null, credits: input.quantity ?? null })
      : existing
        ? {
            packageId: existing.packageId,
            credits: existing.reloadCredits,
            amountCents: existing.reloadAmountCents,
          }
        : checkoutItem({ packageId: DEFAULT_RELOAD_PACKAGE });
  const fields = {
    enabled: input.enabled,
    thresholdCredits: threshold ?? existing?.thresholdCredits ?? 0,
    packageId: chosen.packageId,
    reloadCredits: chosen.credits,
    reloadAmountCents: chosen.amountCents,
    paymentMethodId: card?.paymentMethodId ?? existing?.paymentMethodId ?? null,
  };
  if (existing) {
    em.assign(existing, { ...fields, ...(input.enabled && !existing.enabled ? { lastReason: null } : {}) });
  } else {
    em.create(AutoReloadSetting, { account: em.getReference(Account, accountId), ...fields });
  }
  await em.flush();
  return readAutoReload(em.fork(), accountId);
}
