import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: an account's streams per calendar month and country (top countries over whole months). */
export const StreamAccountCountryMonth = defineEntity({
  name: 'StreamAccountCountryMonth',
  tableName: 'stream_account_country_months',
  properties: {
    accountId: p.uuid().primary(),
    month: p.date().primary(),
    country: p.string().length(2).primary(),
    streams: p.bigint('number'),
  },
});
export type StreamAccountCountryMonth = InferEntity<typeof StreamAccountCountryMonth>;
