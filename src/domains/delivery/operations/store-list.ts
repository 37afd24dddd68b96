import { invalidRequest } from '../../../platform/errors.ts';
import { resolveStoreId } from '../../catalog/index.ts';

/** A list of stores as the client sent it: the ids it names, and the entries that name no store. */
export interface StoreList {
  /** Known store ids, deduplicated, ascending. */
  storeIds: number[];
  /** Entries (ids or aliases) that name no store of the catalog, as sent. */
  unknown: (string | number)[];
}

const CATALOG_HINT = 'See get_distribution_stores (GET /v1/distribution-stores) for store ids and aliases.';

/**
 * Reads `storeIds` (an array of store ids or aliases): 400 when it is not an array, is empty, or holds
 * something other than integers and strings. Entries that name no store are returned, not rejected.
 */
export function readStoreList(raw: unknown, field = 'storeIds'): StoreList {
  if (!Array.isArray(raw)) {
    throw invalidRequest(
      `${field} must be an array of store ids (integers) or aliases. ${CATALOG_HINT}`,
      [{ path: field, message: 'not an array' }],
      'invalid_store_ids',
    );
  }
  if (raw.length === 0) {
    throw invalidRequest(
      `${field} must name at least one store. ${CATALOG_HINT}`,
      [{ path: field, message: 'empty array' }],
      'invalid_store_ids',
    );
  }
  const ids = new Set<number>();
  const unknown: (string | number)[] = [];
  raw.forEach((entry: unknown, index) => {
    const usable = (typeof entry === 'number' && Number.isInteger(entry)) || typeof entry === 'string';
    if (!usable) {
      throw invalidRequest(
        `${field}[${index}] must be a store id (integer) or alias (string). ${CATALOG_HINT}`,
        [{ path: `${field}[${index}]`, message: 'not a store id or alias' }],
        'invalid_store_ids',
      );
    }
    const id = resolveStoreId(entry);
    if (id === null) unknown.push(entry);
    else ids.add(id);
  });
  return { storeIds: [...ids].sort((a, b) => a - b), unknown };
}

export { CATALOG_HINT };
