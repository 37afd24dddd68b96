import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per day (the summary's daily series and its preceding window). */
export const StreamAccountDay = defineEntity({
  name: 'StreamAccountDay',
  tableName: 'stream_account_days',
  properties: {
    accountId: p.uuid().primary(),
    day: p.date().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamAccountDay = InferEntity<typeof StreamAccountDay>;
