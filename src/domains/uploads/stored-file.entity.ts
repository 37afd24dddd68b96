import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

export const FILE_STORES = ['cover-art', 'audio'] as const;
export type FileStore = (typeof FILE_STORES)[number];

export const FILE_ORIGINS = ['base64', 'url', 'chunked', 'multipart', 'generated'] as const;
export type FileOrigin = (typeof FILE_ORIGINS)[number];

export interface MediaWarning {
  code: string;
  message: string;
}

/** A stored, normalised file owned by one account, addressed by `/api/files/<store>/<owner>/<name>`. */
export const StoredFile = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_files',
  properties: {
    id: columns.id(),
    account: () => owningAccount(),
    store: p.enum(FILE_STORES),
    name: p.string().length(200),
    storageKey: p.string().length(600).unique(),
    size: p.bigint('number'),
    contentType: p.string().length(100),
    sha256: p.string().length(64),
    /** What the caller sent, before normalisation. */
    sourceSha256: p.string().length(64),
    sourceSize: p.bigint('number'),
    sourceContentType: p.string().length(100).nullable(),
    sourceName: p.string().length(500).nullable(),
    origin: p.enum(FILE_ORIGINS),
    originUrl: p.text().nullable(),
    /** Facts of the stored media: image size, or duration, sample rate, bit depth, channels, codec. */
    media: p.json<Record<string, unknown>>(),
    warnings: p.json<MediaWarning[]>(),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['account', 'store', 'name'] }],
});

export type StoredFile = InferEntity<typeof StoredFile>;
