import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

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
