import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../../platform/db/columns.ts';
import { owningAccount } from '../../accounts/owning-account.ts';

export const REGISTRY_SOURCES = ['release', 'catalogue'] as const;

export interface DspLink {
  name: string;
  url: string;
}

/**
 * A recording in the registry the ACR check matches against: a track of a release that went live here
 * (`release`, with its owner) or an entry of the operator's imported reference catalogue (`catalogue`).
 * `fingerprint` is the raw Chromaprint fingerprint; `lookupKeys` its distinct 20-bit item prefixes,
 * indexed with an intarray GIN index for candidate lookup (docs/audio.md).
 */
export const RegistryRecording = defineEntity({
  name: 'RegistryRecording',
  tableName: 'registry_recordings',
  properties: {
    id: columns.id(),
    source: p.enum(REGISTRY_SOURCES),
    /** The account whose live release this track is (null for catalogue entries). */
    account: () => owningAccount().nullable(),
    /** The live release and track it came from (kept as ids: the registry outlives nothing it points at). */
    releaseId: p.uuid().nullable(),
    trackPosition: p.integer().nullable(),
    /** An import's own key (file name or CSV row), so a re-import replaces instead of duplicating. */
    externalKey: p.string().length(600).nullable(),
    title: p.string().length(500),
    artist: p.string().length(500).nullable(),
    isrc: p.string().length(12).nullable(),
    albumName: p.string().length(500).nullable(),
    label: p.string().length(500).nullable(),
    dspLinks: p.json<DspLink[]>(),
    durationSeconds: p.double(),
    fingerprint: p.json<number[]>(),
    lookupKeys: p.array().columnType('int4[]'),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['releaseId', 'trackPosition'] }, { properties: ['source', 'externalKey'] }],
  indexes: [
    {
      name: 'registry_recordings_lookup_keys_gin',
      expression:
        'create index "registry_recordings_lookup_keys_gin" on "registry_recordings" using gin ("lookup_keys" gin__int_ops) with (fastupdate = off)',
    },
  ],
});

export type RegistryRecording = InferEntity<typeof RegistryRecording>;
