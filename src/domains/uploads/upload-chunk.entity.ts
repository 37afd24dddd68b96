import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { UploadSession } from './upload-session.entity.ts';

/** One received chunk of an upload session (a chunk sent again replaces its row). */
export const UploadChunk = defineEntity({
  name: 'UploadChunk',
  tableName: 'upload_chunks',
  properties: {
    session: () => p.manyToOne(UploadSession).primary().deleteRule('cascade'),
    index: p.integer().primary(),
    size: p.integer(),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
});

export type UploadChunk = InferEntity<typeof UploadChunk>;
