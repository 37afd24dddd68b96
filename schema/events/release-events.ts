import {
  type ApprovedPayload,
  type EventStoreStatus,
  RELEASE_EVENT_TYPES,
  type ReleaseEventHead,
  type StatusChangedPayload,
  type StoresAddedPayload,
  type TakedownCompletedPayload,
} from '../../src/domains/delivery/index.ts';
import { findOwnedRelease } from '../../src/domains/releases/index.ts';
import { invalidRequest } from '../../src/platform/errors.ts';
import type { PublishedEvent } from '../../src/platform/events/pubsub.ts';
import { EventStream } from '../../src/platform/events/subscribe.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { SkippedStoreRef } from '../delivery/operations.ts';
import { enumFromList } from '../enums.ts';
import { AggregateStatusEnum } from '../releases/enums.ts';
import { ArtistProfileRef } from '../releases/release.ts';

export const ReleaseEventTypeEnum = enumFromList('ReleaseEventType', RELEASE_EVENT_TYPES, {
  description:
    'The kinds of release event; webhooks name them in lower case with a dot (`release.approved`).',
});

const TakedownScopeEnum = enumFromList('TakedownScope', ['full', 'partial'] as const, {
  description: '`FULL`: no store has the release any more; `PARTIAL`: some still do.',
});

const EventStoreStatusRef = builder.objectRef<EventStoreStatus>('EventStoreStatus').implement({
  description: 'A store in an event.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    storeName: t.exposeString('storeName'),
    statusText: t.exposeString('statusText'),
    urlInStore: t.string({
      nullable: true,
      description: 'Present while the store has the release live.',
      resolve: (s) => s.urlInStore ?? null,
    }),
  }),
});

const ApprovedTrackRef = builder.objectRef<ApprovedPayload['tracks'][number]>('ApprovedTrack').implement({
  description: 'A track of an approved release with its final ISRC.',
  fields: (t) => ({
    trackNumber: t.exposeInt('trackNumber'),
    title: t.exposeString('title'),
    isrc: t.exposeString('isrc', { nullable: true }),
  }),
});

const payloadOf = <T extends ReleaseEventHead>(event: PublishedEvent) => event.payload as unknown as T;

/** The outbox row's release, else the payload's (every release event names its release in both). */
function releaseIdOf(event: PublishedEvent): string {
  const releaseId = event.releaseId ?? payloadOf(event).releaseId;
  if (!releaseId) throw new Error(`Outbox event ${event.id} (${event.type}) names no release.`);
  return releaseId;
}

export const ReleaseEventRef = builder.interfaceRef<PublishedEvent>('ReleaseEvent').implement({
  description:
    'An event of one of your releases, as published (the same stream feeds webhooks). Select the fields of ' +
    'each kind with `... on ReleaseStatusChanged { previousStatus status }` and the like.',
  resolveType: (event) => TYPE_NAMES[event.type as keyof typeof TYPE_NAMES] ?? 'ReleaseStatusChanged',
  fields: (t) => ({
    cursor: t.string({
      description: 'Pass it as `after` to resume right after this event.',
      resolve: (e) => String(e.cursor),
    }),
    id: t.id({ resolve: (e) => String(e.id) }),
    type: t.field({
      type: ReleaseEventTypeEnum,
      resolve: (e) => e.type as (typeof RELEASE_EVENT_TYPES)[number],
    }),
    releaseId: t.id({
      description: 'The release the event is of: every kind of release event has one.',
      resolve: (e) => releaseIdOf(e),
    }),
    status: t.field({
      type: AggregateStatusEnum,
      description: "The release's aggregate status once the event's change was made.",
      resolve: (e) => payloadOf(e).status,
    }),
    occurredAt: t.field({
      type: 'DateTime',
      resolve: (e) => new Date(String(e.payload.occurredAt ?? e.createdAt)),
    }),
    title: t.string({ description: 'The release title.', resolve: (e) => payloadOf(e).title ?? '' }),
    artist: t.string({ description: 'The primary artist.', resolve: (e) => payloadOf(e).artist ?? '' }),
    artistProfiles: t.field({
      type: [ArtistProfileRef],
      resolve: (e) => payloadOf(e).artistProfiles ?? [],
    }),
    payload: t.string({
      description:
        'The event body as webhooks deliver it, as JSON text serialised the same way, byte for byte (a client ' +
        'can forward or compare it). The typed fields say the same.',
      resolve: (e) => JSON.stringify(e.payload),
    }),
    test: t.boolean({
      description:
        'True for a test event made on request (`triggerSandboxEvent`): it describes the release without the ' +
        'change having been made, and its payload carries `test: true`. False for every other event.',
      resolve: (e) => e.payload.test === true,
    }),
  }),
});

const TYPE_NAMES = {
  'release.status_changed': 'ReleaseStatusChanged',
  'release.approved': 'ReleaseApproved',
  'release.stores_added': 'ReleaseStoresAdded',
  'release.takedown_completed': 'ReleaseTakedownCompleted',
} as const satisfies Record<(typeof RELEASE_EVENT_TYPES)[number], string>;

builder.objectRef<PublishedEvent>('ReleaseStatusChanged').implement({
  description: 'The release moved: the aggregate status changed, or stores finished a step.',
  interfaces: [ReleaseEventRef],
  fields: (t) => ({
    previousStatus: t.field({
      type: AggregateStatusEnum,
      resolve: (e) => payloadOf<StatusChangedPayload>(e).previousStatus,
    }),
    storeStatuses: t.field({
      type: [EventStoreStatusRef],
      description: 'Every store when the aggregate moved; else the stores that changed.',
      resolve: (e) => payloadOf<StatusChangedPayload>(e).storeStatuses ?? [],
    }),
  }),
});

builder.objectRef<PublishedEvent>('ReleaseApproved').implement({
  description: 'The release passed approval: its UPC and every track ISRC are final.',
  interfaces: [ReleaseEventRef],
  fields: (t) => ({
    upc: t.string({ nullable: true, resolve: (e) => payloadOf<ApprovedPayload>(e).upc }),
    tracks: t.field({ type: [ApprovedTrackRef], resolve: (e) => payloadOf<ApprovedPayload>(e).tracks ?? [] }),
  }),
});

builder.objectRef<PublishedEvent>('ReleaseStoresAdded').implement({
  description: 'More stores were queued for a submitted release; the aggregate status does not move.',
  interfaces: [ReleaseEventRef],
  fields: (t) => ({
    storeIds: t.intList({ resolve: (e) => payloadOf<StoresAddedPayload>(e).storeIds ?? [] }),
    storeStatuses: t.field({
      type: [EventStoreStatusRef],
      resolve: (e) => payloadOf<StoresAddedPayload>(e).storeStatuses ?? [],
    }),
    skippedStores: t.field({
      type: [SkippedStoreRef],
      description: 'Stores that could not be added, each with a reason (`skippedStoreIds` in the payload).',
      resolve: (e) => payloadOf<StoresAddedPayload>(e).skippedStoreIds ?? [],
    }),
  }),
});

builder.objectRef<PublishedEvent>('ReleaseTakedownCompleted').implement({
  description: 'Stores confirmed a takedown.',
  interfaces: [ReleaseEventRef],
  fields: (t) => ({
    scope: t.field({ type: TakedownScopeEnum, resolve: (e) => payloadOf<TakedownCompletedPayload>(e).scope }),
    storeIds: t.intList({ resolve: (e) => payloadOf<TakedownCompletedPayload>(e).storeIds ?? [] }),
    storeStatuses: t.field({
      type: [EventStoreStatusRef],
      resolve: (e) => payloadOf<TakedownCompletedPayload>(e).storeStatuses ?? [],
    }),
    remainingStoreIds: t.intList({
      description: 'Stores that still have the release.',
      resolve: (e) => payloadOf<TakedownCompletedPayload>(e).remainingStoreIds ?? [],
    }),
  }),
});

function parseCursor(after: string | null | undefined): number | null {
  if (after === null || after === undefined) return null;
  if (!/^\d{1,15}$/.test(after))
    throw invalidRequest('after must be a cursor from an earlier event.', [
      { path: 'after', message: 'not a cursor' },
    ]);
  return Number(after);
}

builder.subscriptionField('releaseEvents', (t) =>
  t.field({
    type: ReleaseEventRef,
    authScopes: MCP,
    description:
      'Events of your releases, live. With `after`, every event published after that cursor is replayed first, ' +
      'so a subscriber that reconnects misses nothing.',
    args: {
      releaseId: t.arg.id({ required: false, description: 'Only the events of this release.' }),
      types: t.arg({
        type: [ReleaseEventTypeEnum],
        required: false,
        description: 'Only these kinds (all when omitted).',
      }),
      after: t.arg.string({ required: false, description: 'A cursor of an earlier event: resume after it.' }),
    },
    subscribe: async (_root, args, context) => {
      const { accountId } = requirePrincipal(context);
      const after = parseCursor(args.after);
      const releaseId =
        args.releaseId === null || args.releaseId === undefined ? null : String(args.releaseId);
      if (releaseId) await findOwnedRelease(context.em, accountId, releaseId, { field: 'releaseId' });
      return new EventStream({
        em: context.em,
        pubsub: context.app.pubsub,
        // Only release events reach this stream (each has a release), whatever else the outbox carries.
        filter: { accountId, releaseId, types: args.types?.length ? args.types : RELEASE_EVENT_TYPES },
        after,
      });
    },
    resolve: (event) => event,
  }),
);
