import type { QueueDefinition } from '../../platform/jobs/index.ts';
import { addDays, type Day } from './days.ts';

export const INGEST_QUEUE = 'analytics.ingest';

/** Minutes after midnight UTC the daily run starts, so late reports of the day just ended are in. */
export const INGEST_MINUTES_AFTER_MIDNIGHT = 15;

/**
 * A job on this queue ingests every complete day not ingested yet (`ingestMissedDays`). `short` with
 * one key per run (`daily:<day>`, `start:<day>`) keeps one queued job per run however many processes
 * start; a failed run is retried with backoff, and the next start or day catches up whatever it missed.
 */
export const ingestQueue: QueueDefinition = {
  name: INGEST_QUEUE,
  policy: 'short',
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 900,
  expireInSeconds: 1800,
  notify: true,
};

/** When the run after `day` starts: the next midnight UTC plus a margin. */
export function nextRunAt(today: Day): Date {
  return new Date(Date.parse(`${addDays(today, 1)}T00:00:00Z`) + INGEST_MINUTES_AFTER_MIDNIGHT * 60_000);
}
