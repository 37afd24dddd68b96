import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Release } from './release.entity.ts';

/** A submitted track, with what it was billed. */
export const ReleaseTrack = defineEntity({
  name: 'ReleaseTrack',
  tableName: 'release_tracks',
  properties: {
    id: columns.id(),
    release: () => p.manyToOne(Release).deleteRule('cascade'),
    position: p.integer(),
    title: p.string().length(500),
    titleVersion: p.string().length(500).nullable(),
    isrc: p.string().length(12).nullable().index(),
    audioFileUrl: p.string().length(600),
    explicit: p.boolean(),
    trackType: p.string().length(20).default('original'),
    ai: p.boolean(),
    credits: p.integer(),
    payload: p.json<Record<string, unknown>>(),
  },
  uniques: [{ properties: ['release', 'position'] }],
});

export type ReleaseTrack = InferEntity<typeof ReleaseTrack>;
