import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { ArtistProfile } from '../../src/domains/releases/artist-profiles.ts';
import {
  getReleaseMetadata,
  listReleases,
  mergedMetadata,
} from '../../src/domains/releases/read-releases.ts';
import type { Release } from '../../src/domains/releases/release.entity.ts';
import { Release as ReleaseEntity } from '../../src/domains/releases/release.entity.ts';
import { ReleaseArtist, ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';
import { findOwnedFile } from '../../src/domains/uploads/find-file.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { FileRef } from '../uploads/file.ts';
import { AggregateStatusEnum, ReleaseStatusEnum } from './enums.ts';

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
    trackType: t.exposeString('trackType'),
    ai: t.exposeBoolean('ai'),
    credits: t.exposeInt('credits'),
    metadata: t.field({ type: 'JSON', resolve: (track) => track.payload }),
  }),
});

const ReleaseArtistRef = builder.objectRef<ReleaseArtist>('ReleaseArtist').implement({
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
    upc: t.exposeString('upc', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true }),
    metadata: t.field({
      type: 'JSON',
      description: 'Merged metadata: `{release, tracks}`, with `release.artist_profiles`.',
      resolve: (release) => mergedMetadata(release),
    }),
    releaseMetadata: t.field({
      type: 'JSON',
      description: 'The release object (draft snapshot or submitted data) with `artist_profiles`.',
      resolve: (release) => mergedMetadata(release).release,
    }),
    trackMetadata: t.field({
      type: 'JSON',
      description: 'The tracks as saved.',
      resolve: (release) => mergedMetadata(release).tracks,
    }),
    artistProfiles: t.field({
      type: [ArtistProfileRef],
      resolve: (release) => mergedMetadata(release).release.artist_profiles,
    }),
    tracks: t.field({
      type: [ReleaseTrackRef],
      description: 'Submitted tracks (empty for drafts: their tracks are in metadata).',
      resolve: (release, _args, { em }) =>
        em.find(ReleaseTrack, { release }, { orderBy: { position: 'asc' } }),
    }),
    artists: t.field({
      type: [ReleaseArtistRef],
      resolve: (release, _args, { em }) =>
        em.find(ReleaseArtist, { release }, { orderBy: { position: 'asc' } }),
    }),
    coverArt: t.field({
      type: FileRef,
      nullable: true,
      resolve: (release, _args, context) => {
        const url = release.payload.release.cover_art_file_url;
        return typeof url === 'string'
          ? findOwnedFile(context.em, release.account.id, url).catch(() => null)
          : null;
      },
    }),
  }),
});

builder.queryField('release', (t) =>
  t.field({
    type: ReleaseRef,
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
    args: { limit: t.arg.int({ required: false, defaultValue: 100 }) },
    resolve: (_root, args, context) =>
      listReleases(context.em, requirePrincipal(context).accountId, args.limit ?? 100),
  }),
);

builder.queryField('releasesConnection', (t) =>
  t.connection({
    type: ReleaseRef,
    authScopes: MCP,
    description: 'All releases, newest first, as a Relay connection.',
    resolve: async (_root, args, context) => {
      const accountId = requirePrincipal(context).accountId;
      return resolveOffsetConnection({ args }, ({ limit, offset }) =>
        context.em.find(
          ReleaseEntity,
          { account: accountId },
          { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
        ),
      );
    },
  }),
);
