import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per calendar month and store (top stores over whole months). */
export const StreamStoreMonth = defineEntity({
  name: 'StreamStoreMonth',
  tableName: 'stream_store_months',
  properties: {
    accountId: p.uuid().primary(),
    month: p.date().primary(),
    storeId: p.integer().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamStoreMonth = InferEntity<typeof StreamStoreMonth>;
