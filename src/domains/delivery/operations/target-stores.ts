import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../../platform/errors.ts';
import { findOwnedRelease } from '../../releases/index.ts';
import { CATALOG_HINT, readStoreList } from './store-list.ts';

export interface TargetStoresResult {
  ok: true;
  releaseId: string;
  /** null: all supported stores (the default). */
  distributionStoreIds: number[] | null;
  note: string;
}

/**
 * PUT /releases/{id}/stores: the stores the next submission or redistribution targets (ids or aliases;
 * null resets to all supported stores). Delivers nothing now. Unknown entries beside valid ones are
 * ignored and named in `note`; a list with no valid entry is a 400 pointing to the store catalog. On a
 * draft the payload's `distribution_store_ids` follows, since submission reads the selection from there.
 */
export async function setTargetStores(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  storeIds: unknown,
): Promise<TargetStoresResult> {
  return em.transactional(async (tem) => {
    const release = await findOwnedRelease(tem, accountId, releaseId, { field: 'releaseId', lock: true });
    if (storeIds === undefined) {
      throw invalidRequest(
        'storeIds is required: an array of store ids or aliases, or null to reset to all supported stores.',
        [{ path: 'storeIds', message: 'required' }],
        'invalid_store_ids',
      );
    }
    let selected: number[] | null = null;
    let ignored: (string | number)[] = [];
    if (storeIds !== null) {
      const list = readStoreList(storeIds);
      if (list.storeIds.length === 0) {
        throw invalidRequest(
          `None of ${list.unknown.join(', ')} is a store id or alias. ${CATALOG_HINT}`,
          [{ path: 'storeIds', message: 'no valid store id' }],
          'invalid_store_ids',
        );
      }
      selected = list.storeIds;
      ignored = list.unknown;
    }
    release.distributionStoreIds = selected;
    if (release.status === 'draft') {
      release.payload = {
        ...release.payload,
        release: { ...release.payload.release, distribution_store_ids: selected },
      };
    }
    await tem.flush();
    const when =
      release.status === 'draft' ? 'at submission' : 'at the next redistribution (nothing is delivered now)';
    const parts = [
      selected === null
        ? `Reset: the release targets all supported stores ${when}.`
        : `The release targets ${selected.length} store(s) ${when}.`,
    ];
    if (ignored.length > 0) {
      parts.push(`Ignored unknown store(s): ${ignored.join(', ')} (see get_distribution_stores).`);
    }
    if (release.status === 'submitted') {
      parts.push('To deliver a live release to more stores now, use add_release_stores.');
    }
    return { ok: true, releaseId: release.id, distributionStoreIds: selected, note: parts.join(' ') };
  });
}
