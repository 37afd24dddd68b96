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
 * Enqueues the reload for an account whose debit just claimed its reload slot (`in_flight_since`, set
 * by the debit's own statement in post-ledger-entry.ts when auto-reload is on and the balance is now at
 * or below the threshold); both commit with the debit.
 */
export async function enqueueAutoReload(em: EntityManager, accountId: string): Promise<void> {
  const data: AutoReloadJobData = { accountId };
  await sendInTransaction(em, AUTO_RELOAD_QUEUE, data);
}
