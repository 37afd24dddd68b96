import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/*
 * Streaming figures live in plain tables written and read with set-based SQL (ingest.ts, read-*.ts);
 * these definitions give the migrations their layout. Days are UTC calendar dates. Every primary key
 * starts with the column a read filters on, then the day, so a window reads contiguous index entries.
 */

/** The raw daily figure: one release at one store on one day (store -1300: the video-music platform). */
export const StreamDay = defineEntity({
  name: 'StreamDay',
  tableName: 'stream_days',
  properties: {
    releaseId: p.uuid().primary(),
    day: p.date().primary(),
    storeId: p.integer().primary(),
    accountId: p.uuid(),
    streams: p.bigint('number'),
  },
  indexes: [{ properties: ['day'] }],
});
export type StreamDay = InferEntity<typeof StreamDay>;

/** The raw daily figure of one track at one store; a release's row is the sum of its tracks' rows. */
export const StreamTrackDay = defineEntity({
  name: 'StreamTrackDay',
  tableName: 'stream_track_days',
  properties: {
    releaseId: p.uuid().primary(),
    day: p.date().primary(),
    storeId: p.integer().primary(),
    trackId: p.uuid().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamTrackDay = InferEntity<typeof StreamTrackDay>;

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

/** Rollup: an account's streams per calendar month and release (top releases over whole months). */
export const StreamReleaseMonth = defineEntity({
  name: 'StreamReleaseMonth',
  tableName: 'stream_release_months',
  properties: {
    accountId: p.uuid().primary(),
    month: p.date().primary(),
    releaseId: p.uuid().primary(),
    streams: p.bigint('number'),
  },
});
export type StreamReleaseMonth = InferEntity<typeof StreamReleaseMonth>;

/** One ingested day: the freshness of the figures and what the backfill skips. */
export const StreamIngestion = defineEntity({
  name: 'StreamIngestion',
  tableName: 'stream_ingestions',
  properties: {
    day: p.date().primary(),
    rows: p.integer(),
    ingestedAt: p.datetime(),
  },
});
export type StreamIngestion = InferEntity<typeof StreamIngestion>;

/** The analytics domain's entities, for `src/entities.ts`. */
export const analyticsEntities = [
  StreamDay,
  StreamTrackDay,
  StreamAccountDay,
  StreamStoreDay,
  StreamStoreMonth,
  StreamReleaseDay,
  StreamReleaseMonth,
  StreamIngestion,
];
