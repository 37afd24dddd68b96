import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Release, type ReleasePayload } from './release.entity.ts';

/** Every save of a draft (and the submission itself), never changed afterwards. */
export const ReleaseSnapshot = defineEntity({
  name: 'ReleaseSnapshot',
  tableName: 'release_snapshots',
  properties: {
    id: columns.id(),
    release: () => p.manyToOne(Release).deleteRule('cascade'),
    revision: p.integer(),
    status: p.string().length(50),
    payload: p.json<ReleasePayload>(),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['release', 'revision'] }],
});

export type ReleaseSnapshot = InferEntity<typeof ReleaseSnapshot>;
