import { describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../src/domains/analytics/days.ts';
import { ingestMissedDays } from '../../src/domains/analytics/ingest.ts';
import { enqueueRelease } from '../../src/domains/delivery/enqueue-release.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { submittedRelease, useDeliveryOrm } from '../delivery/harness.ts';
import { deliveriesOf, SANDBOX, tick } from '../delivery/support.ts';

describe('streams start the day a store goes live in the sandbox', () => {
  const orm = useDeliveryOrm();

  it('the live step records liveAt once; ingestion starts from that day', async () => {
    const clock = new ManualClock(new Date('2026-05-04T22:00:00Z'));
    const { releaseId } = await submittedRelease(orm(), { storeIds: [301, 302] });
    const em = orm().em.fork();
    await enqueueRelease(em, await em.findOneOrFail(Release, { id: releaseId }), clock, SANDBOX);
    for (let i = 0; i < 3; i += 1) await tick(orm(), clock);
    const live = await deliveriesOf(orm(), releaseId);
    expect(live.map((d) => d.status)).toEqual(['live', 'live']);
    const liveAt = live[0]!.liveAt!;
    expect(liveAt.getTime()).toBe(clock.now().getTime());
    // A later step run leaves it as it was.
    await tick(orm(), clock, 3 * 86_400);
    expect((await deliveriesOf(orm(), releaseId))[0]!.liveAt!.getTime()).toBe(liveAt.getTime());

    const { days } = await ingestMissedDays(orm().em.fork(), clock);
    expect(days).toBe(3);
    const rows = await orm()
      .em.fork()
      .execute<{ day: string; stores: number }[]>(
        `select to_char(day, 'YYYY-MM-DD') as day, count(*)::int as stores from stream_days
         where release_id = ? group by day order by day`,
        [releaseId],
      );
    const first = dayOf(liveAt);
    expect(rows).toEqual([
      { day: first, stores: 3 },
      { day: addDays(first, 1), stores: 3 },
      { day: addDays(first, 2), stores: 3 },
    ]);
  });
});
