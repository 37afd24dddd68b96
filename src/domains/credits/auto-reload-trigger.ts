import type { EntityManager } from '@mikro-orm/postgresql';
import { type QueueDefinition, sendInTransaction } from '../../platform/jobs/index.ts';

export const AUTO_RELOAD_QUEUE = 'credits.auto_reload';

export interface AutoReloadJobData {
  accountId: string;
}

/** A claim older than this is taken to belong to a crashed job, and a new debit may claim again. */
export const IN_FLIGHT_TIMEOUT_SECONDS = 600;

/**
 * One job charges the saved card and credits on success (payments/auto-reload-job.ts). Retries are few:
 * a charge is idempotent per job (the processor's idempotency key is the job id), but a card problem is
 * recorded, not retried.
 */
export const autoReloadQueue: QueueDefinition = {
  name: AUTO_RELOAD_QUEUE,
  policy: 'standard',
  retryLimit: 3,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 120,
  notify: true,
};

/**
 * Called with every debit, in its transaction: when auto-reload is on and the balance is now at or
 * below the threshold, claims the account's one reload slot (`in_flight_since`) and enqueues the job,
 * both committing with the debit. A second debit while a reload is in flight claims nothing.
 */
export async function triggerAutoReloadIfDue(
  em: EntityManager,
  accountId: string,
  balanceAfter: number,
): Promise<boolean> {
  const claimed = await em.execute<{ account_id: string }[]>(
    `update auto_reload_settings set in_flight_since = now()
      where account_id = ? and enabled and ? <= threshold_credits
        and (in_flight_since is null or in_flight_since < now() - make_interval(secs => ?))
      returning account_id`,
    [accountId, balanceAfter, IN_FLIGHT_TIMEOUT_SECONDS],
  );
  if (claimed.length === 0) return false;
  const data: AutoReloadJobData = { accountId };
  await sendInTransaction(em, AUTO_RELOAD_QUEUE, data);
  return true;
}
