import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

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
