import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** One ingested day: the freshness of the figures and what the backfill skips. */
export const StreamIngestion = defineEntity({
  name: 'StreamIngestion',
  tableName: 'stream_ingestions',
  properties: {
    day: p.date().primary(),
    rows: p.integer(),
    ingestedAt: p.datetime(),
    /** The layout that wrote the day (`INGEST_VERSION`): 1 before the country tables existed. */
    version: p.smallint().default(1),
  },
});
export type StreamIngestion = InferEntity<typeof StreamIngestion>;
