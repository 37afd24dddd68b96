import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { Release } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import { type StoreWorkData, scheduleAdvance } from './schedule.ts';
import type { StoreAdapters } from './store-adapters.ts';

/**
 * The work job's handler: runs the slow part of a store's step (its adapter's `work`) with no
 * transaction open and no lock held, then makes the store due at once, so its next step reads what
 * the work recorded. A store with nothing scheduled any more (it failed, or was finished meanwhile) is
 * left alone: the work's records wait for the step a request may bring.
 */
export async function runStoreWork(
  em: EntityManager,
  adapters: StoreAdapters,
  { releaseId, storeId }: StoreWorkData,
  clock: Clock,
  signal: AbortSignal,
): Promise<void> {
  const delivery = await em.findOne(Delivery, { release: releaseId, storeId }, { refresh: true });
  const adapter = adapters.forStore(storeId);
  if (!delivery || !adapter.work) return;
  await adapter.work({ em, delivery, now: clock.now(), signal });
  if (signal.aborted) return;
  await em.transactional(async (tem) => {
    const now = clock.now();
    // The release lock first, as every writer of its deliveries takes it.
    await tem.findOne(Release, { id: releaseId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const woken = await tem.execute<{ store_id: number }[]>(
      'update deliveries set next_step_at = least(next_step_at, ?) ' +
        'where release_id = ? and store_id = ? and next_step_at is not null returning store_id',
      [now, releaseId, storeId],
    );
    if (woken.length > 0) await scheduleAdvance(tem, releaseId, now);
  });
}
