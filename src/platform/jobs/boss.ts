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
/**
 * How often pg-boss's supervision fails jobs whose worker stopped beating (a killed process) and
 * expires overdue ones (pg-boss's default is 60 s for each). A store's upload work beats every 5 s
 * (delivery/schedule.ts): with a 5 s pass, a crashed process's work runs again within about 20 s of
 * the crash instead of about 95 s. A pass is a few indexed updates and the queue-size counts, and
 * instances share one pass through pg-boss's advisory locks.
 */
const SUPERVISE_SECONDS = 5;

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
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
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
