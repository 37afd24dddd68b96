import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Release } from './release.entity.ts';

/** An artist credited on a release, with the store profiles linked to it. */
export const ReleaseArtist = defineEntity({
  name: 'ReleaseArtist',
  tableName: 'release_artists',
  properties: {
    id: columns.id(),
    release: () => p.manyToOne(Release).deleteRule('cascade'),
    position: p.integer(),
    name: p.string().length(500),
    isPrimary: p.boolean(),
    dsponeArtistUrl: p.string().length(1000).nullable(),
    dsptwoArtistUrl: p.string().length(1000).nullable(),
    dspthreeArtistUrl: p.string().length(1000).nullable(),
    dspfourArtistUrl: p.string().length(1000).nullable(),
  },
  uniques: [{ properties: ['release', 'position'] }],
});

export type ReleaseArtist = InferEntity<typeof ReleaseArtist>;
