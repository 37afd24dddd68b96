import type { EntityManager } from '@mikro-orm/postgresql';
import { AutoReloadSetting, type AutoReloadStatus } from '../credits/auto-reload-setting.entity.ts';
import { postLedgerEntry } from '../credits/post-ledger-entry.ts';
import { SavedCard } from './entities.ts';
import type { PaymentsPort } from './port.ts';
import { recordPayment } from './record-payment.ts';

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
  const reference = `autoreload:${jobId}`;
  const result = await payments.chargeOffSession({
    reloadId: jobId,
    accountId,
    amountCents: setting.reloadAmountCents,
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
    const fresh = await recordPayment(tem, {
      accountId,
      reference,
      kind: 'auto_reload',
      credits: setting.reloadCredits,
      amountCents: setting.reloadAmountCents,
    });
    if (fresh)
      await postLedgerEntry(tem, {
        accountId,
        type: 'auto_reload',
        amount: setting.reloadCredits,
        ref: reference,
      });
    await finish(tem, accountId, { lastStatus: 'succeeded', lastReason: null });
  });
  return 'succeeded';
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
