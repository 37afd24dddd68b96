import { afterAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../src/domains/analytics/days.ts';
import { INGEST_QUEUE } from '../../src/domains/analytics/schedule.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { type Jobs, startJobs } from '../../src/platform/jobs/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startAnalyticsRunner } from '../../src/workers/analytics-runner.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import { liveRelease } from './support.ts';

describe('the daily ingestion job on pg-boss', () => {
  const app = useTestApp();
  let jobs: Jobs | undefined;
  let stop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await stop?.();
    await jobs?.stop();
  });

  it('a start backfills the missed days, and the next run is queued for after midnight UTC', async () => {
    const owner = await accountWithToken(app().em());
    // The job queue runs on real time, so the clock is now and the release went live ten days ago.
    const clock = new ManualClock(new Date());
    const today = dayOf(clock.now());
    await liveRelease(app().em(), owner.accountId, {
      storeIds: [301, 319],
      liveAt: new Date(Date.now() - 10 * 86_400_000),
    });
    const logger = createLogger('silent');
    jobs = await startJobs({ url: String(app().services.orm.config.get('clientUrl')), logger });
    stop = await startAnalyticsRunner({ boss: jobs.boss, em: () => app().em(), logger, clock });

    const days = await waitFor(
      async () =>
        (
          await app()
            .em()
            .execute<{ day: string }[]>(
              `select to_char(day, 'YYYY-MM-DD') as day from stream_ingestions order by day`,
            )
        ).map((row) => row.day),
      (list) => list.length === 10,
    );
    expect(days[0]).toBe(addDays(today, -10));
    expect(days.at(-1)).toBe(addDays(today, -1));
    const [rows] = await app().em().execute<{ n: number }[]>('select count(*)::int as n from stream_days');
    // Two stores and the video-music platform, ten days.
    expect(rows!.n).toBe(30);

    const queued = await app()
      .em()
      .execute<{ singleton_key: string; start_after: Date }[]>(
        `select singleton_key, start_after from pgboss.job where name = ? and state = 'created'`,
        [INGEST_QUEUE],
      );
    expect(queued.map((job) => ({ ...job, start_after: new Date(job.start_after) }))).toEqual([
      { singleton_key: `daily:${today}`, start_after: new Date(`${addDays(today, 1)}T00:15:00Z`) },
    ]);
  });
});
