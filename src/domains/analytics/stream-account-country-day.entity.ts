import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per day and country (top countries over the edges of a window). */
export const StreamAccountCountryDay = defineEntity({
  name: 'StreamAccountCountryDay',
  tableName: 'stream_account_country_days',
  properties: {
    accountId: p.uuid().primary(),
    day: p.date().primary(),
    country: p.string().length(2).primary(),
    streams: p.bigint('number'),
  },
});
export type StreamAccountCountryDay = InferEntity<typeof StreamAccountCountryDay>;
