import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../accounts/index.ts';
import { postLedgerEntry } from '../credits/index.ts';
import { AutoReloadSetting, type AutoReloadStatus } from './auto-reload-setting.entity.ts';
import type { PaymentsPort } from './port.ts';
import { recordPayment } from './record-payment.ts';
import { SavedCard } from './saved-card.entity.ts';

/**
 * At most this many reloads per account in any 24 hours, whatever the threshold and the spending: a
 * loop (or a threshold above the reload size) cannot drain a card. The next reload waits for the window.
 */
export const AUTO_RELOAD_DAILY_CAP = 3;

export type ReloadOutcome = AutoReloadStatus | 'skipped';

/**
 * Works one auto-reload job: charges the saved card off-session for the configured reload and credits
 * it (ledger type `auto_reload`, ref `autoreload:<job>`), exactly once per job (the payment reference
 * is unique and the processor's idempotency key is the job id, so a retried job charges and credits
 * once). A declined card or one that needs authentication disables auto-reload with the reason.
 */
export async function runAutoReload(
  em: EntityManager,
  payments: PaymentsPort,
  accountId: string,
  jobId: string,
): Promise<ReloadOutcome> {
  const setting = await em.findOne(AutoReloadSetting, { account: accountId });
  if (!setting?.enabled) {
    if (setting) await finish(em, accountId, {});
    return 'skipped';
  }
  // The balance may have recovered since the debit that queued this job (a purchase, an earlier reload
  // that a late job follows): a reload is only for a balance still at or below the threshold.
  const account = await em.findOne(Account, { id: accountId }, { fields: ['creditBalance'] });
  if (!account || account.creditBalance > setting.thresholdCredits) {
    await finish(em, accountId, {});
    return 'skipped';
  }
  const [recent] = await em.execute<{ count: string }[]>(
    `select count(*) as count from payments
      where account_id = ? and kind = 'auto_reload' and created_at > now() - interval '24 hours'`,
    [accountId],
  );
  if (Number(recent?.count ?? 0) >= AUTO_RELOAD_DAILY_CAP) {
    await finish(em, accountId, {
      lastStatus: 'daily_cap_reached',
      lastReason: `At most ${AUTO_RELOAD_DAILY_CAP} auto-reloads in 24 hours; the next one waits.`,
    });
    return 'daily_cap_reached';
  }
  const card = setting.paymentMethodId
    ? await em.findOne(SavedCard, { account: accountId, paymentMethodId: setting.paymentMethodId })
    : null;
  if (!card) {
    await finish(em, accountId, {
      enabled: false,
      lastStatus: 'failed',
      lastReason: 'The saved card is gone.',
    });
    return 'failed';
  }
  const result = await payments.chargeOffSession({
    reloadId: jobId,
    accountId,
    amountCents: setting.reloadAmountCents,
    credits: setting.reloadCredits,
    currency: 'USD',
    paymentMethodId: card.paymentMethodId,
    customerId: card.customerId ?? null,
    description: `Auto-reload: ${setting.reloadCredits} credits`,
  });
  if (result.outcome !== 'succeeded') {
    const disables = result.outcome === 'declined' || result.outcome === 'authentication_required';
    await finish(em, accountId, {
      ...(disables ? { enabled: false } : {}),
      lastStatus: result.outcome,
      lastReason: result.reason,
    });
    return result.outcome;
  }
  await em.transactional(async (tem) => {
    await creditReload(tem, {
      accountId,
      reloadId: jobId,
      credits: setting.reloadCredits,
      amountCents: setting.reloadAmountCents,
    });
    await finish(tem, accountId, { lastStatus: 'succeeded', lastReason: null });
  });
  return 'succeeded';
}

/** The payment reference and ledger ref of a reload: `autoreload:<job>`. */
export const reloadReference = (reloadId: string) => `autoreload:${reloadId}`;

/**
 * Credits a charged reload once, inside the caller's transaction: the job after its charge and the
 * provider's success event (a backstop for a job that lost the charge's answer) both come here, and the
 * unique payment reference lets only the first add credits. True when this call credited.
 */
export async function creditReload(
  tem: EntityManager,
  charge: { accountId: string; reloadId: string; credits: number; amountCents: number },
): Promise<boolean> {
  const reference = reloadReference(charge.reloadId);
  const fresh = await recordPayment(tem, {
    accountId: charge.accountId,
    reference,
    kind: 'auto_reload',
    credits: charge.credits,
    amountCents: charge.amountCents,
  });
  if (fresh)
    await postLedgerEntry(tem, {
      accountId: charge.accountId,
      type: 'auto_reload',
      amount: charge.credits,
      ref: reference,
    });
  return fresh;
}

/** Records the outcome and frees the account's reload slot. */
async function finish(
  em: EntityManager,
  accountId: string,
  changes: Partial<Pick<AutoReloadSetting, 'enabled' | 'lastStatus' | 'lastReason'>>,
): Promise<void> {
  await em.nativeUpdate(
    AutoReloadSetting,
    { account: accountId },
    { ...changes, ...(changes.lastStatus ? { lastTriggeredAt: new Date() } : {}), inFlightSince: null },
  );
}
