import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Release } from '../releases/release.entity.ts';
import { aggregateOf } from './aggregate-status.ts';
import type { Clock } from './clock.ts';
import { Delivery, type DeliveryStatus } from './delivery.entity.ts';
import { emitApproved, emitStatusChanged, emitTakedownCompleted } from './events.ts';
import { addError, addStep, hasStep, settleJob } from './job.ts';
import { tracksOf } from './release-content.ts';
import { ReleaseJob } from './release-job.entity.ts';
import type { SandboxControl } from './sandbox-control.entity.ts';
import { instructionFor, readControl } from './sandbox-control.ts';
import { sandboxStoreUrl, statusTextOf, storeNameOf } from './status-text.ts';
import { secondsAfter } from './transaction.ts';

export interface AdvanceResult {
  /** Store moves made. */
  moved: number;
  releases: number;
  /** True when the sandbox is offline and nothing moved. */
  offline: boolean;
}

interface Move {
  delivery: Delivery;
  from: DeliveryStatus;
  to: DeliveryStatus;
}

const APPROVED_STEP = 'release.approved';
const FORWARD: Partial<Record<DeliveryStatus, DeliveryStatus>> = {
  queued: 'in_inspection',
  in_inspection: 'delivered',
  delivered: 'live',
};

/**
 * The sandbox's step function (a worker calls it in a loop): moves every store whose step is due by
 * one step, recomputes each touched release's aggregate and writes its events, all in one transaction.
 *
 * Locks are taken release first, then deliveries (as distribute and takedown do), each with SKIP
 * LOCKED: a release another worker or a distribute/takedown holds is left for the next call, so no
 * store moves twice, no two transactions emit events for one release at once, and nothing deadlocks.
 */
export async function advanceDue(
  em: EntityManager,
  clock: Clock,
  stepSeconds: number,
  options: { limit?: number } = {},
): Promise<AdvanceResult> {
  const now = clock.now();
  return em.transactional(async (tem) => {
    const control = await readControl(tem);
    if (control?.offline) return { moved: 0, releases: 0, offline: true };
    const dueReleaseIds = (
      await tem.execute<{ release_id: string }[]>(
        'select distinct release_id from deliveries where next_step_at <= ? order by release_id limit ?',
        [now, options.limit ?? 100],
      )
    ).map((row) => row.release_id);
    if (dueReleaseIds.length === 0) return { moved: 0, releases: 0, offline: false };
    const releases = await tem.find(
      Release,
      { id: { $in: dueReleaseIds } },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, orderBy: { id: 'asc' }, refresh: true },
    );
    if (releases.length === 0) return { moved: 0, releases: 0, offline: false };
    const releaseIds = releases.map((release) => release.id);
    const due = await tem.find(
      Delivery,
      { release: { $in: releaseIds }, nextStepAt: { $lte: now } },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, orderBy: { storeId: 'asc' }, refresh: true },
    );
    const all = await tem.find(Delivery, { release: { $in: releaseIds } }, { refresh: true });
    const jobs = await tem.find(ReleaseJob, { release: { $in: releaseIds } }, { refresh: true });
    let moved = 0;
    for (const release of releases) {
      const job = jobs.find((j) => j.release.id === release.id);
      const deliveries = all.filter((d) => d.release.id === release.id);
      const moves = due
        .filter((d) => d.release.id === release.id)
        .map((delivery) => step(delivery, release, control, now, stepSeconds))
        .filter((move): move is Move => move !== null);
      moved += moves.length;
      await settle(tem, release, job ?? null, deliveries, moves, now);
    }
    await tem.flush();
    return { moved, releases: releases.length, offline: false };
  });
}

/** One store's next step, honouring the sandbox's reject/fail instruction for it. */
function step(
  delivery: Delivery,
  release: Release,
  control: SandboxControl | null,
  now: Date,
  stepSeconds: number,
): Move | null {
  const from: DeliveryStatus = delivery.status;
  const forward = FORWARD[from];
  let to: DeliveryStatus | null = null;
  if (forward) {
    const instruction = instructionFor(control, release.id, delivery.storeId);
    if (instruction?.action === 'reject') {
      to = 'rejected';
      delivery.reason = instruction.reason ?? 'The store rejected the release.';
    } else if (instruction?.action === 'fail') {
      to = 'failed';
      delivery.reason = instruction.reason ?? 'The store did not accept the delivery.';
    } else {
      to = forward;
    }
  } else if (from === 'takedown_requested') {
    to = 'taken_down';
  }
  if (!to) {
    delivery.nextStepAt = null;
    return null;
  }
  delivery.status = to;
  delivery.statusText = statusTextOf(to, delivery.reason);
  delivery.urlInStore = to === 'live' ? sandboxStoreUrl(delivery.storeId, release.id) : null;
  delivery.nextStepAt = to === 'in_inspection' || to === 'delivered' ? secondsAfter(now, stepSeconds) : null;
  if (to === 'taken_down') delivery.statusBeforeTakedown = null;
  return { delivery, from, to };
}

/**
 * The release after its stores moved: new aggregate, job record and events, per the spec —
 * aggregate moves in the aggregate shape (every store); an added store finishing delivery or a store
 * confirming a takedown while the aggregate stays put, with equal statuses and only those stores.
 */
async function settle(
  em: EntityManager,
  release: Release,
  job: ReleaseJob | null,
  deliveries: readonly Delivery[],
  moves: readonly Move[],
  now: Date,
): Promise<void> {
  if (moves.length === 0) return;
  const previous = release.aggregateStatus ?? 'queued';
  const next = aggregateOf(deliveries);
  release.aggregateStatus = next;
  if (job) {
    for (const move of moves) record(job, move, now);
    settleJob(job, deliveries);
  }
  if (next !== previous) {
    await emitStatusChanged(em, release, previous, next, deliveries, now);
    if (next === 'distributed' && job && !hasStep(job, APPROVED_STEP)) {
      await emitApproved(em, release, await tracksOf(em, release), now);
      addStep(job, { name: APPROVED_STEP, status: 'completed', detail: `UPC ${release.upc}` }, now);
    }
  } else {
    const onTheirOwn = moves
      .filter((m) => (m.to === 'delivered' && m.delivery.addedAfterDistribution) || m.to === 'taken_down')
      .map((m) => m.delivery);
    if (onTheirOwn.length > 0) await emitStatusChanged(em, release, previous, next, onTheirOwn, now);
  }
  const confirmed = moves.filter((m) => m.to === 'taken_down').map((m) => m.delivery);
  if (confirmed.length > 0) {
    const remaining = deliveries.filter((d) => !['taken_down', 'rejected', 'failed'].includes(d.status));
    await emitTakedownCompleted(em, release, confirmed, remaining, now);
  }
}

function record(job: ReleaseJob, move: Move, now: Date): void {
  const { delivery, from, to } = move;
  const storeId = delivery.storeId;
  const failed = to === 'rejected' || to === 'failed';
  addStep(
    job,
    {
      name: `store.${to}`,
      status: failed ? 'failed' : 'completed',
      detail: `${storeNameOf(storeId)}: ${from} -> ${to}`,
      storeId,
    },
    now,
  );
  if (failed) {
    addError(
      job,
      {
        code: to === 'rejected' ? 'store_rejected' : 'delivery_failed',
        message: `${storeNameOf(storeId)}: ${delivery.reason ?? delivery.statusText}`,
        storeId,
      },
      now,
    );
  }
}

/** When the earliest scheduled store step is due (null = nothing scheduled): a worker sleeps until then. */
export async function nextDueAt(em: EntityManager): Promise<Date | null> {
  const [row] = await em.execute<{ due: Date | string | null }[]>(
    'select min(next_step_at) as due from deliveries',
  );
  return row?.due ? new Date(row.due) : null;
}
