import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';
import { StoredFile } from './stored-file.entity.ts';

export const UPLOAD_TYPES = ['coverArt', 'audio'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const SESSION_STATUSES = ['open', 'completed', 'expired'] as const;

/** A chunked upload: chunks arrive in any order, any number of times, until `complete`. */
export const UploadSession = defineEntity({
  name: 'UploadSession',
  tableName: 'upload_sessions',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    type: p.enum(UPLOAD_TYPES),
    fileName: p.string().length(500),
    fileSize: p.bigint('number'),
    fileType: p.string().length(200).nullable(),
    /** SHA-256 of the session's scoped upload token (valid for this session only). */
    uploadTokenHash: p.string().length(64).unique(),
    status: p.enum(SESSION_STATUSES).default('open'),
    file: () => p.manyToOne(StoredFile).nullable().deleteRule('set null'),
    expiresAt: p.datetime().index(),
    completedAt: p.datetime().nullable(),
    createdAt: columns.createdAt(),
  },
});

export type UploadSession = InferEntity<typeof UploadSession>;
