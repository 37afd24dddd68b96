import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: a release's streams per calendar month and country, every store summed (over whole months). */
export const StreamReleaseCountryMonth = defineEntity({
  name: 'StreamReleaseCountryMonth',
  tableName: 'stream_release_country_months',
  properties: {
    releaseId: p.uuid().primary(),
    month: p.date().primary(),
    country: p.string().length(2).primary(),
    streams: p.bigint('number'),
  },
});
export type StreamReleaseCountryMonth = InferEntity<typeof StreamReleaseCountryMonth>;
