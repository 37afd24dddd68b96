import type { EntityManager } from '@mikro-orm/postgresql';
import { type QueueDefinition, sendInTransaction } from '../../platform/jobs/index.ts';

export const ADVANCE_QUEUE = 'delivery.advance';

export interface AdvanceJobData {
  releaseId: string;
}

/**
 * A job on this queue wakes one release at one due time; the deliveries rows decide what moves.
 * `short` with the key release:due keeps one queued job per release and due time. A handler that
 * throws is retried with backoff; one that exhausted its retries is re-sent when a worker starts.
 */
export const advanceQueue: QueueDefinition = {
  name: ADVANCE_QUEUE,
  policy: 'short',
  retryLimit: 10,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 60,
  expireInSeconds: 60,
  notify: true,
};

export function advanceJobKey(releaseId: string, dueAt: Date): string {
  return `${releaseId}:${dueAt.getTime()}`;
}

/** Wakes the release at `dueAt`, committed with the caller's transaction (the one that set the due time). */
export async function scheduleAdvance(em: EntityManager, releaseId: string, dueAt: Date): Promise<void> {
  const data: AdvanceJobData = { releaseId };
  await sendInTransaction(em, ADVANCE_QUEUE, data, {
    singletonKey: advanceJobKey(releaseId, dueAt),
    startAfter: dueAt,
  });
}

export const WORK_QUEUE = 'delivery.work';

export interface StoreWorkData {
  releaseId: string;
  storeId: number;
}

/**
 * A job on this queue runs one store's slow adapter work (uploads, polling) outside any transaction,
 * then wakes the release (store-work.ts). `stately` keyed by store: at most one queued and one running
 * per store, so a store's work never runs twice at once. Work may take minutes; a worker that dies
 * stops its heartbeat and the work is retried, with backoff like a throw.
 */
export const workQueue: QueueDefinition = {
  name: WORK_QUEUE,
  policy: 'stately',
  retryLimit: 10,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 3600,
  notify: true,
};

/** pg-boss's shortest heartbeat: a running handler refreshes it every 5 s; 10 s without one fails the job. */
const WORK_HEARTBEAT_SECONDS = 10;

/** Runs the store's adapter work, committed with the caller's transaction (the step that asked for it). */
export async function scheduleWork(em: EntityManager, releaseId: string, storeId: number): Promise<void> {
  const data: StoreWorkData = { releaseId, storeId };
  await sendInTransaction(em, WORK_QUEUE, data, {
    singletonKey: `${releaseId}:${storeId}`,
    heartbeatSeconds: WORK_HEARTBEAT_SECONDS,
  });
}
