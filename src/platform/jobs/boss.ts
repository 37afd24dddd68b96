import { PgBoss } from 'pg-boss';
import { reportFailure } from '../db/report-failure.ts';
import type { Logger } from '../logger.ts';
import { JOBS_SCHEMA } from './queue.ts';

export interface Jobs {
  boss: PgBoss;
  /**
   * Every worker stops fetching at once; handlers running finish until `timeoutMs` has passed, when
   * pg-boss fails their jobs back to the queue (retried later, by any process). Then closes pg-boss's
   * pool. Resolves with how many jobs were still running when the time ran out.
   */
  stop(timeoutMs?: number): Promise<number>;
}

/** The default grace of running handlers (the server passes what is left of its shutdown grace). */
const STOP_TIMEOUT_MS = 10_000;
/** pg-boss gives running handlers at least this long, whatever it is asked. */
const PG_BOSS_MIN_TIMEOUT_MS = 1_000;

/** Jobs that handlers of this instance are working on now. */
function activeJobs(boss: PgBoss): number {
  return boss.getWipData().reduce((sum, worker) => sum + worker.count, 0);
}

/**
 * The pg-boss instance that works jobs in this process: its own small pool on the app's database,
 * LISTEN/NOTIFY wake-ups, and the maintenance pg-boss coordinates across instances (expiring claims
 * of crashed workers, retries, deleting old jobs). The schema and queues exist already (installJobs).
 */
export async function startJobs(deps: { url: string; logger: Logger; poolMax?: number }): Promise<Jobs> {
  const boss = new PgBoss({
    connectionString: deps.url,
    schema: JOBS_SCHEMA,
    max: deps.poolMax ?? 4,
    useListenNotify: true,
    schedule: false,
  });
  boss.on('error', (err) => reportFailure(deps.logger, err, 'jobs'));
  boss.on('warning', (warning) => deps.logger.warn({ warning }, 'jobs'));
  await boss.start();
  return {
    boss,
    stop: async (timeoutMs = STOP_TIMEOUT_MS) => {
      const timeout = Math.max(timeoutMs, PG_BOSS_MIN_TIMEOUT_MS);
      // Counted just before pg-boss's own deadline (its clock starts a little later than this one).
      let cut = 0;
      const count = setTimeout(() => {
        cut = activeJobs(boss);
      }, timeout);
      await boss.stop({ graceful: true, timeout });
      clearTimeout(count);
      return cut;
    },
  };
}
