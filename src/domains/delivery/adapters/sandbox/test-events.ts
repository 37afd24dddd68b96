import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../../../platform/errors.ts';
import type { LimitRule, RateLimits } from '../../../../platform/rate-limit/index.ts';
import { DEFAULT_STORE_IDS, STORES } from '../../../catalog/index.ts';
import { type AggregateStatus, findOwnedRelease, type Release } from '../../../releases/index.ts';
import { Delivery } from '../../delivery.entity.ts';
import {
  aggregateStatusOf,
  appendReleaseEvent,
  approvedPayload,
  type EventStore,
  type ReleaseEventHead,
  type ReleaseEventType,
  statusChangedPayload,
  storesAddedPayload,
  takedownCompletedPayload,
} from '../../events.ts';
import { tracksOf } from '../../release-content.ts';
import { statusTextOf } from '../../status-text.ts';
import type { StoreAdapters } from '../../store-adapters.ts';
import { sandboxSampleOf } from './sample-release.ts';
import { everyStoreOnTheSandbox } from './sandbox-adapter.ts';

/** Test events per account: enough to try every kind a few times a minute, too few to flood endpoints. */
export const SANDBOX_EVENT_RATE = { points: 10, windowSeconds: 60 } as const;

/** The account's budget of test events (the `sandbox-events` policy of the RateLimit headers). */
export const SANDBOX_EVENT_RULE: LimitRule = { name: 'sandbox-events', ...SANDBOX_EVENT_RATE };

const OVER_THE_LIMIT =
  `At most ${SANDBOX_EVENT_RATE.points} test events per ` +
  `${SANDBOX_EVENT_RATE.windowSeconds === 60 ? 'minute' : `${SANDBOX_EVENT_RATE.windowSeconds} seconds`} per account.`;

export interface SandboxEventRequest {
  type: ReleaseEventType;
  /** One of the caller's submitted releases; null: the account's sandbox sample (made on first use). */
  releaseId: string | null;
}

export interface TriggeredSandboxEvent {
  /** The outbox event's id: `ReleaseEvent.id` on the stream, `event_id` in the webhook delivery log. */
  eventId: number;
  type: ReleaseEventType;
  releaseId: string;
  sampleRelease: boolean;
  /** The payload as stored, in the key order every delivery of it has. */
  payload: Record<string, unknown>;
  occurredAt: Date;
  /** Test events the account may still ask for in the current window. */
  remaining: number;
}

export interface SandboxEventDeps {
  adapters: StoreAdapters;
  rateLimits: RateLimits;
  now: Date;
}

/** Where a release stood before the move to its current aggregate, on the usual path. */
const PREVIOUS_STATUS: Record<AggregateStatus, AggregateStatus> = {
  queued: 'queued',
  pending: 'queued',
  delivered: 'pending',
  distributed: 'delivered',
  taken_down: 'distributed',
};

const HOLDS_NOTHING = new Set(['taken_down', 'rejected', 'failed']);

/**
 * Makes a test event of one kind for one of the caller's releases (or the account's sandbox sample),
 * through the path every event takes: written to the outbox in a transaction that holds the release's
 * lock, published by the relay to `releaseEvents` subscribers and fanned out to the account's webhook
 * endpoints. The payload has the kind's documented shape plus `test: true`; nothing of the release
 * changes. Refused (409 `sandbox_only`) unless every store is on the sandbox: a deployment that
 * delivers to real stores never makes events that did not happen.
 */
export async function triggerSandboxEvent(
  em: EntityManager,
  accountId: string,
  request: SandboxEventRequest,
  deps: SandboxEventDeps,
): Promise<TriggeredSandboxEvent> {
  if (!everyStoreOnTheSandbox(deps.adapters)) {
    throw conflict(
      'Test events are made only where every store is delivered by the sandbox (DISTRIBUTOR=sandbox and no ' +
        'store connected over SFTP). This deployment delivers to real stores, so it only sends events of ' +
        'what really happens.',
      'sandbox_only',
    );
  }
  return em.transactional(async (tem) => {
    const release = request.releaseId
      ? await submittedRelease(tem, accountId, request.releaseId)
      : await sandboxSampleOf(tem, accountId, deps.now);
    const { remaining } = await deps.rateLimits.consume(SANDBOX_EVENT_RULE, accountId, OVER_THE_LIMIT);
    const payload = await testPayload(tem, release, request.type, deps.now);
    const event = await appendReleaseEvent(tem, release, { ...payload, test: true });
    // Read back as PostgreSQL stores it: the same JSON, key for key in the order deliveries send it.
    const [stored] = await tem.execute<{ payload: Record<string, unknown> }[]>(
      'select payload from outbox_events where id = ?',
      [event.id],
    );
    return {
      eventId: event.id,
      type: request.type,
      releaseId: release.id,
      sampleRelease: release.sandboxSample,
      payload: stored?.payload ?? event.payload,
      occurredAt: deps.now,
      remaining,
    };
  });
}

/** The caller's release, locked as the delivery steps lock it; 404 when not theirs, 409 while a draft. */
async function submittedRelease(em: EntityManager, accountId: string, releaseId: string): Promise<Release> {
  const release = await findOwnedRelease(em, accountId, releaseId, { field: 'releaseId', lock: true });
  if (release.status !== 'submitted') {
    throw conflict(
      `Release ${release.id} has not been submitted yet: events are of submitted releases. Submit it, or ` +
        'name no release to use your sandbox sample release.',
      'release_not_submitted',
    );
  }
  return release;
}

/**
 * The event of that kind as the release would announce it now, from what its rows say. Every status
 * in it is the release's current one (a status read answers the same), except the stores the kind
 * announces: the store a `stores_added` event queues and the store a `takedown_completed` event takes
 * down stay as they are.
 */
async function testPayload(
  em: EntityManager,
  release: Release,
  type: ReleaseEventType,
  now: Date,
): Promise<ReleaseEventHead> {
  const stores = await em.find(Delivery, { release: release.id }, { orderBy: { storeId: 'asc' } });
  switch (type) {
    case 'release.status_changed': {
      // The move that brought the release where it is, with every store as it stands.
      const status = aggregateStatusOf(release);
      return statusChangedPayload(release, PREVIOUS_STATUS[status], status, stores, now);
    }
    case 'release.approved':
      return approvedPayload(release, await tracksOf(em, release), now);
    case 'release.stores_added':
      return storesAddedPayload(release, [asStatus(storeToAdd(stores), 'queued')], [], now);
    case 'release.takedown_completed': {
      const holding = stores.filter((store) => !HOLDS_NOTHING.has(store.status));
      const [confirmed = stores[0] ?? asStatus(storeToAdd(stores), 'live'), ...remaining] = holding;
      const payload = takedownCompletedPayload(release, [asStatus(confirmed, 'taken_down')], remaining, now);
      payload.scope = remaining.length === 0 ? 'full' : 'partial';
      return payload;
    }
  }
}

/** The first default store the release is not at (else the first of the catalogue, else its first store). */
function storeToAdd(stores: readonly Delivery[]): number {
  const taken = new Set(stores.map((store) => store.storeId));
  const candidates = [...DEFAULT_STORE_IDS, ...STORES.map((store) => store.storeId)];
  return candidates.find((storeId) => !taken.has(storeId)) ?? stores[0]?.storeId ?? candidates[0]!;
}

function asStatus(store: EventStore | number, status: 'queued' | 'live' | 'taken_down'): EventStore {
  return {
    storeId: typeof store === 'number' ? store : store.storeId,
    status,
    statusText: statusTextOf(status),
    urlInStore: null,
  };
}
