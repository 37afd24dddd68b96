import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per calendar month and release (top releases over whole months). */
export const StreamReleaseMonth = defineEntity({
  name: 'StreamReleaseMonth',
  tableName: 'stream_release_months',
  properties: {
    accountId: p.uuid().primary(),
    month: p.date().primary(),
    releaseId: p.uuid().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamReleaseMonth = InferEntity<typeof StreamReleaseMonth>;
