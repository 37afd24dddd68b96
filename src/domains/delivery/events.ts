import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvent } from '../../platform/events/append-event.ts';
import type { OutboxEvent } from '../../platform/events/outbox-event.entity.ts';
import type { AggregateStatus, Release, ReleaseInput, ReleaseTrack } from '../releases/index.ts';
import { type ArtistProfile, artistProfilesOf } from '../releases/index.ts';
import type { Delivery } from './delivery.entity.ts';
import type { SkippedStore } from './distributor.ts';
import { storeNameOf } from './status-text.ts';

/** The kinds of release event, as webhooks name them. */
export const RELEASE_EVENT_TYPES = [
  'release.status_changed',
  'release.approved',
  'release.stores_added',
  'release.takedown_completed',
] as const;
export type ReleaseEventType = (typeof RELEASE_EVENT_TYPES)[number];

/**
 * What every release event carries (the JSON webhooks deliver; `event` repeats the type), `status` (the
 * release's aggregate status once the event's change is made) included.
 */
export interface ReleaseEventHead {
  event: ReleaseEventType;
  releaseId: string;
  status: AggregateStatus;
  title: string;
  artist: string;
  artistProfiles: ArtistProfile[];
  occurredAt: string;
  /**
   * Present, and true, only on a test event the sandbox made on request (a sandbox event trigger): it
   * describes the release without the change having been made. No other event carries the key.
   */
  test?: true;
}

export interface StatusChangedPayload extends ReleaseEventHead {
  previousStatus: AggregateStatus;
  storeStatuses: EventStoreStatus[];
}

export interface ApprovedPayload extends ReleaseEventHead {
  status: AggregateStatus;
  upc: string | null;
  tracks: { trackNumber: number; title: string; isrc: string | null }[];
}

export interface StoresAddedPayload extends ReleaseEventHead {
  status: AggregateStatus;
  storeIds: number[];
  storeStatuses: EventStoreStatus[];
  skippedStoreIds: (SkippedStore & { storeName: string })[];
}

export interface TakedownCompletedPayload extends ReleaseEventHead {
  status: AggregateStatus;
  scope: 'full' | 'partial';
  storeIds: number[];
  storeStatuses: EventStoreStatus[];
  remainingStoreIds: number[];
}

/** A store in an event: `urlInStore` only while the store has the release live. */
export interface EventStoreStatus {
  storeId: number;
  storeName: string;
  statusText: string;
  urlInStore?: string;
}

/** What an event reads of a store: its delivery row, or a store as a test event describes it. */
export type EventStore = Pick<Delivery, 'storeId' | 'status' | 'statusText' | 'urlInStore'>;

export function eventStoreStatus(delivery: EventStore): EventStoreStatus {
  return {
    storeId: delivery.storeId,
    storeName: storeNameOf(delivery.storeId),
    statusText: delivery.statusText,
    ...(delivery.status === 'live' && delivery.urlInStore ? { urlInStore: delivery.urlInStore } : {}),
  };
}

export function eventStoreStatuses(deliveries: readonly EventStore[]): EventStoreStatus[] {
  return [...deliveries].sort((a, b) => a.storeId - b.storeId).map(eventStoreStatus);
}

const sortedIds = (stores: readonly { storeId: number }[]) =>
  stores.map((s) => s.storeId).sort((a, b) => a - b);

function releaseHead(release: Release): { releaseId: string; title: string; artist: string } {
  const meta = release.payload.release as ReleaseInput;
  return {
    releaseId: release.id,
    title: release.title ?? (typeof meta.title === 'string' ? meta.title : ''),
    artist:
      release.primaryArtistName ??
      (typeof meta.primary_artist_name === 'string' ? meta.primary_artist_name : ''),
  };
}

/**
 * A submitted release's aggregate status. Only drafts have none (submission sets `queued`, the steps move
 * it from there) and events are only of submitted releases, so an event always carries one.
 */
export const aggregateStatusOf = (release: Release): AggregateStatus => release.aggregateStatus ?? 'queued';

function tail(release: Release, now: Date): { artistProfiles: ArtistProfile[]; occurredAt: string } {
  return {
    artistProfiles: artistProfilesOf(release.payload.release as ReleaseInput),
    occurredAt: now.toISOString(),
  };
}

/** Writes a release event to the outbox, in the caller's transaction (the one of the change it tells). */
export async function appendReleaseEvent(
  em: EntityManager,
  release: Release,
  payload: ReleaseEventHead,
): Promise<OutboxEvent> {
  return appendEvent(em, {
    accountId: release.account.id,
    releaseId: release.id,
    type: payload.event,
    payload: { ...payload },
  });
}

/**
 * `release.status_changed`: the aggregate shape (every store) when the aggregate moves; with equal
 * statuses and only the changed stores when one store finishes delivery or confirms a takedown.
 */
export function statusChangedPayload(
  release: Release,
  previousStatus: AggregateStatus,
  status: AggregateStatus,
  stores: readonly EventStore[],
  now: Date,
): StatusChangedPayload {
  return {
    event: 'release.status_changed',
    ...releaseHead(release),
    previousStatus,
    status,
    storeStatuses: eventStoreStatuses(stores),
    ...tail(release, now),
  };
}

/** `release.approved`: the release passed approval; the UPC and every track's ISRC are final. */
export function approvedPayload(
  release: Release,
  tracks: readonly ReleaseTrack[],
  now: Date,
): ApprovedPayload {
  return {
    event: 'release.approved',
    ...releaseHead(release),
    status: aggregateStatusOf(release),
    upc: release.upc ?? null,
    tracks: [...tracks]
      .sort((a, b) => a.position - b.position)
      .map((track) => ({ trackNumber: track.position + 1, title: track.title, isrc: track.isrc ?? null })),
    ...tail(release, now),
  };
}

/** `release.stores_added`: more stores were queued; the aggregate does not move. */
export function storesAddedPayload(
  release: Release,
  queued: readonly EventStore[],
  skipped: readonly SkippedStore[],
  now: Date,
): StoresAddedPayload {
  return {
    event: 'release.stores_added',
    ...releaseHead(release),
    status: aggregateStatusOf(release),
    storeIds: sortedIds(queued),
    storeStatuses: eventStoreStatuses(queued),
    skippedStoreIds: skipped.map((s) => ({ ...s, storeName: storeNameOf(s.storeId) })),
    ...tail(release, now),
  };
}

/** `release.takedown_completed`: stores confirmed a takedown; `full` when no store has it any more. */
export function takedownCompletedPayload(
  release: Release,
  confirmed: readonly EventStore[],
  remaining: readonly EventStore[],
  now: Date,
): TakedownCompletedPayload {
  return {
    event: 'release.takedown_completed',
    ...releaseHead(release),
    status: aggregateStatusOf(release),
    scope: release.aggregateStatus === 'taken_down' ? 'full' : 'partial',
    storeIds: sortedIds(confirmed),
    storeStatuses: eventStoreStatuses(confirmed),
    remainingStoreIds: sortedIds(remaining),
    ...tail(release, now),
  };
}

export async function emitStatusChanged(
  em: EntityManager,
  release: Release,
  previousStatus: AggregateStatus,
  status: AggregateStatus,
  stores: readonly Delivery[],
  now: Date,
): Promise<void> {
  await appendReleaseEvent(em, release, statusChangedPayload(release, previousStatus, status, stores, now));
}

export async function emitApproved(
  em: EntityManager,
  release: Release,
  tracks: readonly ReleaseTrack[],
  now: Date,
): Promise<void> {
  await appendReleaseEvent(em, release, approvedPayload(release, tracks, now));
}

export async function emitStoresAdded(
  em: EntityManager,
  release: Release,
  queued: readonly Delivery[],
  skipped: readonly SkippedStore[],
  now: Date,
): Promise<void> {
  await appendReleaseEvent(em, release, storesAddedPayload(release, queued, skipped, now));
}

export async function emitTakedownCompleted(
  em: EntityManager,
  release: Release,
  confirmed: readonly Delivery[],
  remaining: readonly Delivery[],
  now: Date,
): Promise<void> {
  await appendReleaseEvent(em, release, takedownCompletedPayload(release, confirmed, remaining, now));
}
