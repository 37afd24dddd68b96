import { PgBoss } from 'pg-boss';
import { reportFailure } from '../db/report-failure.ts';
import type { Logger } from '../logger.ts';
import { JOBS_SCHEMA } from './queue.ts';

export interface Jobs {
  boss: PgBoss;
  /** Lets running handlers finish (up to the timeout), then closes pg-boss's pool. */
  stop(): Promise<void>;
}

/** Below the server's 15 s forced exit, so a handler in flight normally finishes on SIGTERM. */
const STOP_TIMEOUT_MS = 10_000;

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
  return { boss, stop: () => boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS }) };
}
