import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import { AUTO_RELOAD_QUEUE, type AutoReloadJobData } from '../domains/credits/index.ts';
import { type PaymentsPort, runAutoReload } from '../domains/payments/index.ts';
import type { Logger } from '../platform/logger.ts';

/** Works auto-reload jobs, one at a time per process (a handler that throws is retried by pg-boss). */
export async function startAutoReloadRunner(deps: {
  boss: PgBoss;
  em: () => EntityManager;
  payments: PaymentsPort;
  logger: Logger;
}): Promise<() => Promise<void>> {
  await deps.boss.work<AutoReloadJobData>(
    AUTO_RELOAD_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1 },
    async ([job]) => {
      if (!job) return;
      const outcome = await runAutoReload(deps.em(), deps.payments, job.data.accountId, job.id);
      deps.logger.info({ accountId: job.data.accountId, outcome }, 'auto-reload');
    },
  );
  return () => deps.boss.offWork(AUTO_RELOAD_QUEUE, { wait: true });
}
