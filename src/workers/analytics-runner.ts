import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import { dayOf, INGEST_QUEUE, ingestMissedDays, nextRunAt } from '../domains/analytics/index.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * Works the daily streams ingestion: a start sends a run at once (the backfill of the days missed
 * while no process ran), and each run sends the next one for shortly after the coming midnight UTC.
 * The keys keep one run per day however many processes work the queue; ingestion is idempotent.
 */
export async function startAnalyticsRunner(deps: {
  boss: PgBoss;
  em: () => EntityManager;
  logger: Logger;
  clock?: Clock;
}): Promise<() => Promise<void>> {
  const clock = deps.clock ?? systemClock;
  const scheduleNext = () => {
    const today = dayOf(clock.now());
    return deps.boss.send(INGEST_QUEUE, {}, { singletonKey: `daily:${today}`, startAfter: nextRunAt(today) });
  };
  await deps.boss.send(INGEST_QUEUE, {}, { singletonKey: `start:${dayOf(clock.now())}` });
  await deps.boss.work(INGEST_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    const { days, rows } = await ingestMissedDays(deps.em(), clock);
    if (days > 0) deps.logger.info({ days, rows }, 'streams ingested');
    await scheduleNext();
  });
  await scheduleNext();
  return async () => {
    await deps.boss.offWork(INGEST_QUEUE, { wait: true });
  };
}
