import type { EntityManager } from '@mikro-orm/postgresql';
import { findStore } from '../catalog/stores.ts';
import type { Release } from '../releases/release.entity.ts';
import type { SandboxControl } from './adapters/sandbox/sandbox-control.entity.ts';
import { instructionFor } from './adapters/sandbox/sandbox-control.ts';
import { aggregateOf } from './aggregate-status.ts';
import type { Delivery, DeliveryStatus } from './delivery.entity.ts';
import { aggregateStatusOf, emitApproved, emitStatusChanged, emitTakedownCompleted } from './events.ts';
import { addError, addStep, hasStep, settleJob } from './job.ts';
import { tracksOf } from './release-content.ts';
import type { ReleaseJob } from './release-job.entity.ts';
import { sandboxStoreUrl, statusTextOf, storeNameOf } from './status-text.ts';
import { secondsAfter } from './transaction.ts';

export interface Move {
  delivery: Delivery;
  from: DeliveryStatus;
  to: DeliveryStatus;
}

const APPROVED_STEP = 'release.approved';

/** A store leaving `queued` is sent the release (even one that then rejects it), unless it left the catalogue. */
export const sendsRelease = (move: Move): boolean =>
  move.from === 'queued' && findStore(move.delivery.storeId) !== undefined;
const FORWARD: Partial<Record<DeliveryStatus, DeliveryStatus>> = {
  queued: 'in_inspection',
  in_inspection: 'delivered',
  delivered: 'live',
};

/** One store's next step, honouring the sandbox's reject/fail instruction for it. */
export function step(
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
    if (from === 'queued' && !findStore(delivery.storeId)) {
      // Withdrawn from the catalogue after the release was queued for it: there is no store to send to.
      to = 'failed';
      delivery.reason = `Store ${delivery.storeId} is no longer in the distribution catalogue (GET /v1/distribution-stores); the release was not sent to it.`;
    } else if (instruction?.action === 'reject') {
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
  if (to === 'live') delivery.liveAt ??= now;
  if (to === 'taken_down') delivery.statusBeforeTakedown = null;
  return { delivery, from, to };
}

/**
 * The release after its stores moved: new aggregate, job record and events, per the spec —
 * aggregate moves in the aggregate shape (every store); an added store finishing delivery or a store
 * confirming a takedown while the aggregate stays put, with equal statuses and only those stores.
 */
export async function settle(
  em: EntityManager,
  release: Release,
  job: ReleaseJob | null,
  deliveries: readonly Delivery[],
  moves: readonly Move[],
  now: Date,
): Promise<void> {
  if (moves.length === 0) return;
  const previous = aggregateStatusOf(release);
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
