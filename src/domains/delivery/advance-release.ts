import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { Release } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import { readOutages } from './outages.ts';
import { loadContent, type ReleaseContent } from './release-content.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { scheduleAdvance, scheduleWork } from './schedule.ts';
import { applyOutcome, type Move, settle, withdrawnOutcome } from './step.ts';
import type { StepOutcome, StoreAdapter } from './store-adapter.ts';
import type { StoreAdapters } from './store-adapters.ts';
import { earliestStep, secondsAfter } from './transaction.ts';

export interface AdvanceResult {
  /** Store moves made. */
  moved: number;
  releases: number;
  /** True when every adapter is out and nothing moved. */
  offline: boolean;
}

/**
 * One release's step (the job handler, and each release of `advanceDue`), in one transaction: lock
 * the release, then its due deliveries, as distribute and takedown do (so nothing deadlocks), re-read
 * them under the lock, ask each store's adapter what the store did, write that to the rows, recompute
 * the aggregate and write the job record and events; then schedule the release's next wake-up at its
 * new earliest due step. A duplicate or early job finds nothing due and only reschedules, so a store
 * never moves twice. Stores of an adapter that is out stay as they are and are looked at again later;
 * a store whose adapter asks for work gets a work job, sent with the step (store-work.ts).
 *
 * The handler waits for the lock (a release held by distribute or takedown moves right after); the
 * sweep passes `skipLocked` and leaves a held release to its holder and its own job.
 */
export async function advanceRelease(
  em: EntityManager,
  releaseId: string,
  clock: Clock,
  adapters: StoreAdapters,
  options: { skipLocked?: boolean } = {},
): Promise<AdvanceResult> {
  const now = clock.now();
  const lockMode = options.skipLocked ? LockMode.PESSIMISTIC_PARTIAL_WRITE : LockMode.PESSIMISTIC_WRITE;
  return em.transactional(async (tem) => {
    const outages = await readOutages(tem, adapters);
    const retryAt = outageRetryAt(outages, now);
    if (retryAt && outages.size === adapters.all.length) {
      await scheduleAdvance(tem, releaseId, retryAt);
      return { moved: 0, releases: 0, offline: true };
    }
    const release = await tem.findOne(Release, { id: releaseId }, { lockMode, refresh: true });
    if (!release) return { moved: 0, releases: 0, offline: false };
    const due = await tem.find(
      Delivery,
      { release: releaseId, nextStepAt: { $lte: now } },
      { lockMode, orderBy: { storeId: 'asc' }, refresh: true },
    );
    const deliveries = await tem.find(Delivery, { release: releaseId }, { refresh: true });
    const job = await tem.findOne(ReleaseJob, { release: releaseId }, { refresh: true });
    const outcomes = await outcomesOf(tem, release, due, adapters, outages, now);
    const moves: Move[] = [];
    const waiting: Delivery[] = [];
    const working: Delivery[] = [];
    for (const delivery of due) {
      const decided = outcomes.get(delivery);
      if (!decided) {
        waiting.push(delivery);
        continue;
      }
      const move = applyOutcome(delivery, decided.outcome, decided.adapter, now);
      if (move) moves.push(move);
      if (decided.outcome.work) working.push(delivery);
    }
    await settle(tem, release, job, deliveries, moves, now);
    await tem.flush();
    for (const delivery of working) await scheduleWork(tem, releaseId, delivery.storeId);
    // Every writer of these rows holds the release lock, so the stepped entities are the rows as stored.
    const next = earliestStep([
      ...deliveries.filter((d) => !waiting.includes(d)),
      { nextStepAt: waiting.length > 0 ? retryAt : null },
    ]);
    if (next) await scheduleAdvance(tem, releaseId, next);
    return { moved: moves.length, releases: 1, offline: false };
  });
}

/**
 * What each due store did, by its adapter (all of one adapter's stores in one call); stores of an
 * adapter that is out get none. The release's content is loaded at most once, for whoever needs it.
 */
async function outcomesOf(
  em: EntityManager,
  release: Release,
  due: readonly Delivery[],
  adapters: StoreAdapters,
  outages: ReadonlyMap<StoreAdapter, string>,
  now: Date,
): Promise<Map<Delivery, { outcome: StepOutcome; adapter: string }>> {
  const decided = new Map<Delivery, { outcome: StepOutcome; adapter: string }>();
  const byAdapter = new Map<StoreAdapter, Delivery[]>();
  for (const delivery of due) {
    const withdrawn = withdrawnOutcome(delivery);
    if (withdrawn) {
      decided.set(delivery, { outcome: withdrawn, adapter: 'delivery core' });
      continue;
    }
    const adapter = adapters.forStore(delivery.storeId);
    if (outages.has(adapter)) continue;
    byAdapter.set(adapter, [...(byAdapter.get(adapter) ?? []), delivery]);
  }
  let content: Promise<ReleaseContent> | undefined;
  const context = { em, release, now, content: () => (content ??= loadContent(em, release)) };
  for (const [adapter, stores] of byAdapter) {
    const outcomes = await adapter.step(context, stores);
    if (outcomes.length !== stores.length) {
      throw new Error(
        `The ${adapter.name} adapter answered ${outcomes.length} outcomes for ${stores.length} stores.`,
      );
    }
    for (const [i, delivery] of stores.entries())
      decided.set(delivery, { outcome: outcomes[i]!, adapter: adapter.name });
  }
  return decided;
}

/** When the releases of the adapters that are out are looked at again (the soonest of them). */
function outageRetryAt(outages: ReadonlyMap<StoreAdapter, string>, now: Date): Date | null {
  if (outages.size === 0) return null;
  const seconds = Math.min(...[...outages.keys()].map((adapter) => adapter.outage!.retryAfterSeconds));
  return wholeSecond(secondsAfter(now, seconds));
}

/** Outage retries of concurrent duplicate jobs land on one key (and so collapse into one job). */
function wholeSecond(date: Date): Date {
  return new Date(Math.ceil(date.getTime() / 1000) * 1000);
}
