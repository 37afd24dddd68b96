import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The raw daily figure of one release at one store in one country (ISO 3166-1 alpha-2, `ZZ` unknown);
 * a release's row in `stream_days` is the sum of its country rows. Only countries with streams have a row.
 */
export const StreamCountryDay = defineEntity({
  name: 'StreamCountryDay',
  tableName: 'stream_country_days',
  properties: {
    releaseId: p.uuid().primary(),
    day: p.date().primary(),
    storeId: p.integer().primary(),
    country: p.string().length(2).primary(),
    accountId: p.uuid(),
    streams: p.bigint('number'),
  },
  indexes: [{ properties: ['day'] }],
});
export type StreamCountryDay = InferEntity<typeof StreamCountryDay>;
