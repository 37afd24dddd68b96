import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Release } from '../releases/release.entity.ts';
import { readControl } from './adapters/sandbox/sandbox-control.ts';
import type { Clock } from './clock.ts';
import { Delivery } from './delivery.entity.ts';
import { recordMessages } from './release-content.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { scheduleAdvance } from './schedule.ts';
import { type Move, sendsRelease, settle, step } from './step.ts';
import { secondsAfter } from './transaction.ts';

export interface AdvanceResult {
  /** Store moves made. */
  moved: number;
  releases: number;
  /** True when the sandbox is offline and nothing moved. */
  offline: boolean;
}

/** While the sandbox is offline a release is looked at again this often (at most; the step if shorter). */
const OFFLINE_RETRY_SECONDS = 5;

/**
 * One release's step (the job handler, and each release of `advanceDue`), in one transaction: lock
 * the release, then its due deliveries, as distribute and takedown do (so nothing deadlocks), re-read
 * them under the lock, move each one step (a store leaving `queued` is sent the release: its ERN
 * message is built and kept now), recompute the aggregate and write the job record and
 * events; then schedule the release's next wake-up at its new earliest due step. A duplicate or early
 * job finds nothing due and only reschedules, so a store never moves twice.
 *
 * The handler waits for the lock (a release held by distribute or takedown moves right after); the
 * sweep passes `skipLocked` and leaves a held release to its holder and its own job.
 */
export async function advanceRelease(
  em: EntityManager,
  releaseId: string,
  clock: Clock,
  stepSeconds: number,
  options: { skipLocked?: boolean } = {},
): Promise<AdvanceResult> {
  const now = clock.now();
  const lockMode = options.skipLocked ? LockMode.PESSIMISTIC_PARTIAL_WRITE : LockMode.PESSIMISTIC_WRITE;
  return em.transactional(async (tem) => {
    const control = await readControl(tem);
    if (control?.offline) {
      const retryAt = secondsAfter(now, Math.min(stepSeconds, OFFLINE_RETRY_SECONDS));
      await scheduleAdvance(tem, releaseId, wholeSecond(retryAt));
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
    const moves = due
      .map((delivery) => step(delivery, release, control, now, stepSeconds))
      .filter((move): move is Move => move !== null);
    const sent = moves.filter(sendsRelease).map((move) => move.delivery);
    await recordMessages(tem, release, sent, now);
    await settle(tem, release, job, deliveries, moves, now);
    await tem.flush();
    // Every writer of these rows holds the release lock, so the stepped entities are the rows as stored.
    const next = earliest(deliveries.map((d) => d.nextStepAt));
    if (next) await scheduleAdvance(tem, releaseId, next);
    return { moved: moves.length, releases: 1, offline: false };
  });
}

function earliest(dates: readonly (Date | null | undefined)[]): Date | null {
  let min: Date | null = null;
  for (const date of dates) if (date && (!min || date < min)) min = date;
  return min;
}

/** Offline retries of concurrent duplicate jobs land on one key (and so collapse into one job). */
function wholeSecond(date: Date): Date {
  return new Date(Math.ceil(date.getTime() / 1000) * 1000);
}
