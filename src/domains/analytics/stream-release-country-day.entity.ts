import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Rollup: a release's streams per day and country, every store summed (its countries over part-months). */
export const StreamReleaseCountryDay = defineEntity({
  name: 'StreamReleaseCountryDay',
  tableName: 'stream_release_country_days',
  properties: {
    releaseId: p.uuid().primary(),
    day: p.date().primary(),
    country: p.string().length(2).primary(),
    streams: p.bigint('number'),
  },
});
export type StreamReleaseCountryDay = InferEntity<typeof StreamReleaseCountryDay>;
