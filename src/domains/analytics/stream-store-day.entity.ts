import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per day and store (top stores over the edges of a window). */
export const StreamStoreDay = defineEntity({
  name: 'StreamStoreDay',
  tableName: 'stream_store_days',
  properties: {
    accountId: p.uuid().primary(),
    day: p.date().primary(),
    storeId: p.integer().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamStoreDay = InferEntity<typeof StreamStoreDay>;
