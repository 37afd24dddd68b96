import type { EntityManager } from '@mikro-orm/postgresql';
import { CommitClearedCache } from '../../platform/cache/commit-cleared-cache.ts';
import { releaseNotOwned } from '../releases/index.ts';
import type { RecordedDelivery } from './distributor.ts';
import { readRecordedDelivery } from './recorded-delivery.ts';
import type { StoreAdapters } from './store-adapters.ts';

/** The safety net: however invalidation fares, a cached status is at most this old. */
export const STATUS_CACHE_TTL_MS = 5_000;

/**
 * What the rows record of each release's delivery (the status read's input), by release id, for agents
 * and dashboards that poll; cleared on every commit (CommitClearedCache). The owner check runs on every
 * hit: another account's release answers `release_not_owned`, as uncached.
 */
export class ReleaseStatusCache extends CommitClearedCache<RecordedDelivery> {
  readonly #adapters: StoreAdapters;

  constructor(adapters: StoreAdapters) {
    super('release-status', { max: 20_000, ttlMs: STATUS_CACHE_TTL_MS });
    this.#adapters = adapters;
  }

  /** The caller's release's recorded delivery, from the cache or one statement (see readRecordedDelivery). */
  async readOwned(
    em: () => EntityManager,
    accountId: string,
    releaseId: string,
    field: string,
  ): Promise<RecordedDelivery> {
    const recorded = await this.read(releaseId.toLowerCase(), () =>
      readRecordedDelivery(em(), this.#adapters, accountId, releaseId, field),
    );
    if (recorded.accountId !== accountId) throw releaseNotOwned(releaseId);
    return recorded;
  }
}
