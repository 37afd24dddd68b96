import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

// The analytics tables (stream-*.entity.ts): streaming figures live in plain tables written and read
// with set-based SQL (ingest.ts, read-*.ts); these definitions give the migrations their layout. Days
// are UTC calendar dates. Every primary key starts with the column a read filters on, then the day, so
// a window reads contiguous index entries.

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
