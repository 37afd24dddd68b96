import type { EntityManager } from '@mikro-orm/postgresql';
import { findStore } from '../catalog/index.ts';
import type { Release } from '../releases/index.ts';
import { aggregateOf } from './aggregate-status.ts';
import type { Delivery, DeliveryStatus } from './delivery.entity.ts';
import { aggregateStatusOf, emitApproved, emitStatusChanged, emitTakedownCompleted } from './events.ts';
import { addError, addStep, hasStep, settleJob } from './job.ts';
import { tracksOf } from './release-content.ts';
import type { ReleaseJob } from './release-job.entity.ts';
import { statusTextOf, storeNameOf } from './status-text.ts';
import type { ReportedStatus, StepOutcome } from './store-adapter.ts';

export interface Move {
  delivery: Delivery;
  from: DeliveryStatus;
  to: DeliveryStatus;
}

const APPROVED_STEP = 'release.approved';

/** Where a store can go from each status: forward, or out (rejected, failed); a takedown only confirms. */
const REPORTABLE: Partial<Record<DeliveryStatus, readonly ReportedStatus[]>> = {
  queued: ['in_inspection', 'delivered', 'live', 'rejected', 'failed'],
  in_inspection: ['delivered', 'live', 'rejected', 'failed'],
  delivered: ['live', 'rejected', 'failed'],
  takedown_requested: ['taken_down'],
};

const DEFAULT_REASON: Partial<Record<ReportedStatus, string>> = {
  rejected: 'The store rejected the release.',
  failed: 'The store did not accept the delivery.',
};

/**
 * A store that left the catalogue after the release was queued for it: there is no store to send to,
 * whichever adapter would have, so it fails at its first step without its adapter being asked.
 */
export function withdrawnOutcome(delivery: Readonly<Delivery>): StepOutcome | null {
  if (delivery.status !== 'queued' || findStore(delivery.storeId)) return null;
  return {
    status: 'failed',
    reason: `Store ${delivery.storeId} is no longer in the distribution catalogue (GET /v1/distribution-stores); the release was not sent to it.`,
    nextStepAt: null,
  };
}

/** Writes what the adapter says of a store to its row; the move, when its status changed. */
export function applyOutcome(
  delivery: Delivery,
  outcome: StepOutcome,
  adapter: string,
  now: Date,
): Move | null {
  const from: DeliveryStatus = delivery.status;
  const to = outcome.status;
  delivery.nextStepAt = outcome.nextStepAt;
  if (outcome.sentMessage !== undefined) delivery.ddexMessage = outcome.sentMessage;
  if (!to || to === from) {
    if (outcome.statusText !== undefined) delivery.statusText = outcome.statusText;
    return null;
  }
  if (!REPORTABLE[from]?.includes(to)) {
    throw new Error(`The ${adapter} adapter moved store ${delivery.storeId} from ${from} to ${to}.`);
  }
  if (to === 'rejected' || to === 'failed') delivery.reason = outcome.reason ?? DEFAULT_REASON[to] ?? null;
  delivery.status = to;
  delivery.statusText = outcome.statusText ?? statusTextOf(to, delivery.reason);
  delivery.urlInStore = to === 'live' ? (outcome.urlInStore ?? null) : null;
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
