import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per day and release (top releases over the edges of a window). */
export const StreamReleaseDay = defineEntity({
  name: 'StreamReleaseDay',
  tableName: 'stream_release_days',
  properties: {
    accountId: p.uuid().primary(),
    day: p.date().primary(),
    releaseId: p.uuid().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamReleaseDay = InferEntity<typeof StreamReleaseDay>;
