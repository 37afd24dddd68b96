import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { releaseNotOwned } from '../releases/find-release.ts';
import { type RecordedDelivery, readRecordedDelivery } from './recorded-delivery.ts';

/** The safety net: however invalidation fares, a cached status is at most this old. */
export const STATUS_CACHE_TTL_MS = 5_000;
export const RELEASE_STATUS_CACHE = 'release-status';
const MAX_ENTRIES = 20_000;

/**
 * What the rows record of each release's delivery (the status read's input), for agents and dashboards
 * that poll. Invalidation is deliberately coarse: every transaction committed in this process clears
 * the whole cache at once, and is announced to the other processes (pub/sub or PostgreSQL NOTIFY), which
 * clear theirs; a read that raced a commit is not stored (generation check). So a read after a delivery
 * step, a submission or a takedown in this process never sees the old state, and in another process
 * within one hop.
 */
export class ReleaseStatusCache {
  private readonly entries = new LRUCache<string, RecordedDelivery>({
    max: MAX_ENTRIES,
    ttl: STATUS_CACHE_TTL_MS,
  });
  private generation = 0;

  /** How many releases are held now. */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The caller's release's recorded delivery, from the cache or one statement (see readRecordedDelivery). */
  async read(
    em: () => EntityManager,
    accountId: string,
    releaseId: string,
    field: string,
  ): Promise<RecordedDelivery> {
    const cached = this.entries.get(releaseId.toLowerCase());
    if (cached) {
      if (cached.accountId !== accountId) throw releaseNotOwned(releaseId);
      return cached;
    }
    const before = this.generation;
    const recorded = await readRecordedDelivery(em(), accountId, releaseId, field);
    // A commit landed while we read: what we read may predate it, so it is answered but not kept.
    if (this.generation === before) this.entries.set(recorded.releaseId, recorded);
    return recorded;
  }
}
