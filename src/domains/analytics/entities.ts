import { StreamAccountDay } from './stream-account-day.entity.ts';
import { StreamDay } from './stream-day.entity.ts';
import { StreamIngestion } from './stream-ingestion.entity.ts';
import { StreamReleaseDay } from './stream-release-day.entity.ts';
import { StreamReleaseMonth } from './stream-release-month.entity.ts';
import { StreamStoreDay } from './stream-store-day.entity.ts';
import { StreamStoreMonth } from './stream-store-month.entity.ts';
import { StreamTrackDay } from './stream-track-day.entity.ts';

/**
 * The analytics domain's entities, for `src/entities.ts`. Streaming figures live in plain tables
 * written and read with set-based SQL (ingest.ts, read-*.ts); these definitions give the migrations
 * their layout. Days are UTC calendar dates. Every primary key starts with the column a read filters
 * on, then the day, so a window reads contiguous index entries.
 */
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
