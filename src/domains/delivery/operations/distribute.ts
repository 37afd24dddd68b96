import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden } from '../../../platform/errors.ts';
import type { Distributor } from '../distributor.ts';
import { lockOwnedSubmittedRelease } from '../lock-release.ts';
import { storeNameOf } from '../status-text.ts';
import { readStoreList } from './store-list.ts';
import { type SkippedStoreView, skippedView } from './views.ts';

export interface DistributeResult {
  releaseId: string;
  queuedStoreIds: number[];
  skippedStoreIds: SkippedStoreView[];
  note: string;
}

/**
 * POST /releases/{id}/distribute: queues a submitted release for more stores (ids or aliases) without
 * re-uploading, in one transaction with the release row locked first. 409 `release_not_submitted`
 * before submission; 403 `store_not_available` when an entry names no store of the catalog. The
 * distributor applies the release's stored UGC policy choices to the stores queued now.
 */
export async function distributeToStores(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  storeIds: unknown,
  distributor: Distributor,
): Promise<DistributeResult> {
  return em.transactional(async (tem) => {
    const release = await lockOwnedSubmittedRelease(tem, accountId, releaseId);
    const list = readStoreList(storeIds);
    if (list.unknown.length > 0) {
      throw forbidden(
        `Store(s) ${list.unknown.join(', ')} are not available for this account. ` +
          'See get_distribution_stores (GET /v1/distribution-stores) for the stores you can use.',
        'store_not_available',
      );
    }
    const result = await distributor.addStores(tem, release, list.storeIds);
    const queued = result.queued.map(storeNameOf);
    return {
      releaseId: release.id,
      queuedStoreIds: result.queued,
      skippedStoreIds: result.skipped.map(skippedView),
      note:
        queued.length > 0
          ? `Queued for ${queued.join(', ')}; each goes live after the store's delivery steps ` +
            '(watch get_release_status). The aggregate status does not move.'
          : 'Nothing was queued: every store was skipped (see skippedStoreIds).',
    };
  });
}
