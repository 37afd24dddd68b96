import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { type AdvanceResult, advanceRelease } from './advance-release.ts';
import { readOutages } from './outages.ts';
import type { StoreAdapters } from './store-adapters.ts';

/**
 * Advances every release with a step due now, each in its own transaction (`advanceRelease`), skipping
 * a release another transaction holds. The worker does not need it (each release has its own job);
 * tests step a `ManualClock` through it.
 */
export async function advanceDue(
  em: EntityManager,
  clock: Clock,
  adapters: StoreAdapters,
  options: { limit?: number } = {},
): Promise<AdvanceResult> {
  const outages = await readOutages(em, adapters);
  if (outages.size > 0 && outages.size === adapters.all.length)
    return { moved: 0, releases: 0, offline: true };
  const due = await em.execute<{ release_id: string }[]>(
    'select distinct release_id from deliveries where next_step_at <= ? order by release_id limit ?',
    [clock.now(), options.limit ?? 100],
  );
  const total: AdvanceResult = { moved: 0, releases: 0, offline: false };
  for (const { release_id } of due) {
    const result = await advanceRelease(em, release_id, clock, adapters, { skipLocked: true });
    total.moved += result.moved;
    total.releases += result.releases;
    total.offline ||= result.offline;
  }
  return total;
}
