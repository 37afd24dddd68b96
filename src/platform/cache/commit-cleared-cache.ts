import { LRUCache } from 'lru-cache';

/** The name under which a commit is announced to the other processes, which clear their caches. */
export const COMMIT_INVALIDATION = 'commit';

/**
 * A read-through cache for answers that polling clients repeat, with one coarse invalidation rule:
 * every transaction committed in this process clears every such cache at once (a MikroORM
 * `afterTransactionCommit` subscriber), and the commit is announced to the other processes (pub/sub or
 * PostgreSQL NOTIFY), which clear theirs. A read that raced a commit is answered but not stored (the
 * generation check), so a read after a commit in this process never sees the state before it; in
 * another process, within one hop. `ttlMs` is the safety net if an announcement is lost.
 */
export class CommitClearedCache<V extends object> {
  readonly name: string;
  private readonly entries: LRUCache<string, V>;
  private generation = 0;
  /** Reads answered from the cache, and reads that loaded (the metrics' hit rate). */
  hits = 0;
  misses = 0;

  constructor(name: string, options: { max: number; ttlMs: number }) {
    this.name = name;
    this.entries = new LRUCache<string, V>({ max: options.max, ttl: options.ttlMs });
  }

  /** How many answers are held now. */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.generation++;
    // The LRU's clear rewrites arrays as long as `max` even when empty: a write-heavy process with no
    // polls would pay it on every commit.
    if (this.entries.size > 0) this.entries.clear();
  }

  /** The cached answer for `key`, or `load()`'s (stored unless a commit landed meanwhile). */
  async read(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const before = this.generation;
    const loaded = await load();
    if (this.generation === before) this.entries.set(key, loaded);
    return loaded;
  }
}
