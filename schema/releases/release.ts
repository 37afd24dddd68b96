import type { ArtistProfile, Release, TRACK_TYPES } from '../../src/domains/releases/index.ts';
import {
  getReleaseMetadata,
  listReleases,
  mergedMetadata,
  pageOfReleases,
  ReleaseArtist,
  ReleaseTrack,
} from '../../src/domains/releases/index.ts';
import { batchLoads } from '../batch-loads.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { FileRef } from '../uploads/file.ts';
import { coverFileOf } from './cover-file.ts';
import { AggregateStatusEnum, ReleaseStatusEnum } from './enums.ts';
import { ReleaseShape, TrackShape, TrackTypeEnum } from './release-shape.ts';
import { SEARCH_ARG } from './search-arg.ts';

type Body = Record<string, unknown>;
const bodies = (value: unknown): Body[] =>
  Array.isArray(value)
    ? value.filter((item): item is Body => typeof item === 'object' && item !== null && !Array.isArray(item))
    : [];

export const ArtistProfileRef = builder.objectRef<ArtistProfile>('ArtistProfile').implement({
  description: 'An artist of the release with the store profiles linked to it (null: none linked).',
  fields: (t) => ({
    name: t.exposeString('name'),
    isPrimary: t.exposeBoolean('isPrimary'),
    dsptwoArtistId: t.exposeString('dsptwoArtistId', { nullable: true }),
    dsptwoArtistUrl: t.exposeString('dsptwoArtistUrl', { nullable: true }),
    dsponeArtistId: t.exposeString('dsponeArtistId', { nullable: true }),
    dsponeArtistUri: t.exposeString('dsponeArtistUri', { nullable: true }),
    dsponeArtistUrl: t.exposeString('dsponeArtistUrl', { nullable: true }),
  }),
});

const ReleaseTrackRef = builder.objectRef<ReleaseTrack>('ReleaseTrack').implement({
  description: 'A submitted track and what it was billed.',
  fields: (t) => ({
    position: t.exposeInt('position'),
    title: t.exposeString('title'),
    titleVersion: t.exposeString('titleVersion', { nullable: true }),
    isrc: t.exposeString('isrc', { nullable: true }),
    audioFileUrl: t.exposeString('audioFileUrl'),
    explicit: t.exposeBoolean('explicit'),
    trackType: t.field({
      type: TrackTypeEnum,
      resolve: (track) => track.trackType as (typeof TRACK_TYPES)[number],
    }),
    ai: t.exposeBoolean('ai'),
    credits: t.exposeInt('credits'),
    metadata: t.field({
      type: TrackShape.output,
      description: 'The track as submitted.',
      resolve: (track) => track.payload,
    }),
  }),
});

builder.objectField(ReleaseShape.output, 'artistProfiles', (t) =>
  t.field({
    type: [ArtistProfileRef],
    nullable: true,
    description: "The artists with their stored store links (a release's metadata; null in a draft result).",
    resolve: (body) =>
      Array.isArray(body.artist_profiles) ? (body.artist_profiles as ArtistProfile[]) : null,
  }),
);

const ReleaseDocumentRef = builder.objectRef<ReturnType<typeof mergedMetadata>>('ReleaseDocument').implement({
  description: 'The metadata of a release: its release object and tracks.',
  fields: (t) => ({
    release: t.field({ type: ReleaseShape.output, resolve: (m) => m.release }),
    tracks: t.field({ type: [TrackShape.output], resolve: (m) => bodies(m.tracks) }),
  }),
});

const ReleaseArtistRef = builder.objectRef<ReleaseArtist>('ReleaseArtist').implement({
  description: 'An artist credited on a submitted release, with the store profiles linked.',
  fields: (t) => ({
    position: t.exposeInt('position'),
    name: t.exposeString('name'),
    isPrimary: t.exposeBoolean('isPrimary'),
    dsponeArtistUrl: t.exposeString('dsponeArtistUrl', { nullable: true }),
    dsptwoArtistUrl: t.exposeString('dsptwoArtistUrl', { nullable: true }),
    dspthreeArtistUrl: t.exposeString('dspthreeArtistUrl', { nullable: true }),
    dspfourArtistUrl: t.exposeString('dspfourArtistUrl', { nullable: true }),
  }),
});

export const ReleaseRef = builder.objectRef<Release>('Release').implement({
  description: 'A release, from first draft to submission.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: ReleaseStatusEnum }),
    revision: t.exposeInt('revision'),
    draftStatus: t.exposeString('draftStatus'),
    conversationId: t.exposeString('conversationId', { nullable: true }),
    title: t.exposeString('title', { nullable: true }),
    primaryArtistName: t.exposeString('primaryArtistName', { nullable: true }),
    aggregateStatus: t.expose('aggregateStatus', { type: AggregateStatusEnum, nullable: true }),
    distributionStoreIds: t.field({
      type: ['Int'],
      nullable: true,
      description: 'null: all supported stores.',
      resolve: (r) => r.distributionStoreIds,
    }),
    tokenOffset: t.exposeBoolean('tokenOffset'),
    creditsSpent: t.exposeInt('creditsSpent'),
    provenance: t.exposeString('provenance', { nullable: true }),
    sandboxSample: t.exposeBoolean('sandboxSample', {
      description:
        'True for the sample release the sandbox makes for test events (triggerSandboxEvent): never charged, not counted as a submission, not distributable.',
    }),
    upc: t.exposeString('upc', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true }),
    metadata: t.field({
      type: ReleaseDocumentRef,
      description: 'Merged metadata: the release object (with artistProfiles) and the tracks.',
      resolve: (release) => mergedMetadata(release),
    }),
    releaseMetadata: t.field({
      type: ReleaseShape.output,
      description: 'The release object (draft snapshot or submitted data), with artistProfiles.',
      resolve: (release) => mergedMetadata(release).release,
    }),
    trackMetadata: t.field({
      type: [TrackShape.output],
      description: 'The tracks as saved.',
      resolve: (release) => bodies(mergedMetadata(release).tracks),
    }),
    releaseMetadataWire: t.field({
      ...FACADE_ONLY,
      type: 'JSON',
      description: 'The release object as stored, with `artist_profiles`, for the REST and agent bodies.',
      resolve: (release) => mergedMetadata(release).release,
    }),
    trackMetadataWire: t.field({
      ...FACADE_ONLY,
      type: 'JSON',
      description: 'The tracks as stored, for the REST and agent bodies.',
      resolve: (release) => mergedMetadata(release).tracks,
    }),
    artistProfiles: t.field({
      type: [ArtistProfileRef],
      resolve: (release) => mergedMetadata(release).release.artist_profiles,
    }),
    // Per-node relations load in batches (one statement per relation for a whole list of releases).
    tracks: t.loadableGroup({
      type: ReleaseTrackRef,
      description: 'Submitted tracks (empty for drafts: their tracks are in metadata).',
      load: (releaseIds: string[], context) =>
        batchLoads(context, releaseIds, (ids) =>
          context.em.find(ReleaseTrack, { release: { $in: ids } }, { orderBy: { position: 'asc' } }),
        ),
      group: (track) => track.release.id,
      resolve: (release) => release.id,
    }),
    artists: t.loadableGroup({
      type: ReleaseArtistRef,
      load: (releaseIds: string[], context) =>
        batchLoads(context, releaseIds, (ids) =>
          context.em.find(ReleaseArtist, { release: { $in: ids } }, { orderBy: { position: 'asc' } }),
        ),
      group: (artist) => artist.release.id,
      resolve: (release) => release.id,
    }),
    coverArt: t.field({
      type: FileRef,
      nullable: true,
      description: "The cover art file the release names, when it is one of the account's files.",
      resolve: (release, _args, context) => coverFileOf(release, context),
    }),
  }),
});

builder.queryField('release', (t) =>
  t.field({
    type: ReleaseRef,
    description: 'One of your releases: its metadata, tracks, artists and cover art.',
    authScopes: MCP,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) =>
      (await getReleaseMetadata(context.em, requirePrincipal(context).accountId, args.id)).release,
  }),
);

builder.queryField('releases', (t) =>
  t.field({
    type: [ReleaseRef],
    authScopes: MCP,
    description: 'The most recent releases, newest first (limit-only paging, as on REST).',
    args: {
      limit: t.arg.int({ required: false, defaultValue: 100 }),
      search: t.arg.string(SEARCH_ARG),
    },
    resolve: (_root, args, context) =>
      listReleases(context.em, requirePrincipal(context).accountId, args.limit ?? 100, args.search ?? null),
  }),
);

builder.queryField('releasesConnection', (t) =>
  t.connection(
    {
      type: ReleaseRef,
      authScopes: MCP,
      description:
        'All releases, newest first, as a Relay connection with keyset cursors: pages do not shift while ' +
        'releases are created. `first`/`after` forward, `last`/`before` backward; at most 100 a page (20 by default). ' +
        'With `search`, the releases it finds, paged the same way: a cursor pages only the search it came from ' +
        '(another search, or none, refuses it with `invalid_cursor`).',
      args: { search: t.arg.string(SEARCH_ARG) },
      resolve: (_root, args, context) =>
        pageOfReleases(
          context.em,
          requirePrincipal(context).accountId,
          { first: args.first, after: args.after, last: args.last, before: args.before },
          args.search ?? null,
        ),
    },
    { description: 'A page of your releases, newest first.' },
    { description: 'A release with its cursor.' },
  ),
);
