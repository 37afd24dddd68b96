import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, invalidRequest } from '../../../platform/errors.ts';
import type { Distributor } from '../distributor.ts';
import { lockOwnedSubmittedRelease } from '../lock-release.ts';
import { storeNameOf } from '../status-text.ts';
import { readStoreList } from './store-list.ts';
import { type SkippedStoreView, skippedView } from './views.ts';

export interface TakedownStoresResult {
  releaseId: string;
  requestedStoreIds: number[];
  skippedStoreIds: SkippedStoreView[];
  note: string;
}

/** `all` (any case), absent or null: every store that has the release; else a list of ids or aliases. */
export function readTakedownTarget(raw: unknown): 'all' | number[] {
  if (raw === undefined || raw === null) return 'all';
  if (typeof raw === 'string') {
    if (raw.trim().toLowerCase() === 'all') return 'all';
    throw invalidRequest(
      'storeIds must be an array of store ids, or the string "all" (omitted: all stores).',
      [{ path: 'storeIds', message: 'not an array or "all"' }],
      'invalid_store_ids',
    );
  }
  const list = readStoreList(raw);
  if (list.unknown.length > 0) {
    throw forbidden(
      `Store(s) ${list.unknown.join(', ')} are not available for this account. ` +
        'See get_distribution_stores (GET /v1/distribution-stores) for the stores you can use.',
      'store_not_available',
    );
  }
  return list.storeIds;
}

/**
 * POST /releases/{id}/takedown: asks stores to remove a submitted release (one transaction, release row
 * locked first). Irreversible: a requested takedown cannot be cancelled. Stores confirm over the next
 * delivery steps (`release.takedown_completed` then); stores without the release come back skipped.
 */
export async function takedownStores(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  storeIds: unknown,
  distributor: Distributor,
): Promise<TakedownStoresResult> {
  return em.transactional(async (tem) => {
    const release = await lockOwnedSubmittedRelease(tem, accountId, releaseId);
    const target = readTakedownTarget(storeIds);
    const result = await distributor.takedown(tem, release, target);
    const requested = result.requested.map(storeNameOf);
    return {
      releaseId: release.id,
      requestedStoreIds: result.requested,
      skippedStoreIds: result.skipped.map(skippedView),
      note:
        requested.length > 0
          ? `Takedown requested for ${requested.join(', ')}. It cannot be cancelled; each store confirms ` +
            'it over the next delivery steps (statusText "Takedown delivered", ' +
            'event release.takedown_completed).'
          : 'No takedown was requested: no store named has the release (see skippedStoreIds).',
    };
  });
}
