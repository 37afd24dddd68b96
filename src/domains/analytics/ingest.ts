import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { addDays, type Day, dayOf, monthOf } from './days.ts';
import { sourcesOn } from './sources.ts';
import { type StreamReports, sandboxStreamReports } from './stream-reports.ts';

/** Rows per statement of an upsert: keeps each JSON parameter to a few hundred kilobytes. */
const CHUNK = 5_000;

const UPSERT_DAYS = `
insert into stream_days (release_id, day, store_id, account_id, streams)
select * from jsonb_to_recordset(?::jsonb) as x(release_id uuid, day date, store_id int, account_id uuid, streams bigint)
on conflict (release_id, day, store_id) do update set streams = excluded.streams, account_id = excluded.account_id`;

const UPSERT_TRACK_DAYS = `
insert into stream_track_days (release_id, day, store_id, track_id, streams)
select * from jsonb_to_recordset(?::jsonb) as x(release_id uuid, day date, store_id int, track_id uuid, streams bigint)
on conflict (release_id, day, store_id, track_id) do update set streams = excluded.streams`;

/** The rollups of one day are recomputed from its raw rows, so a re-run leaves them exact. */
const ROLLUP_STORE_DAYS = `
insert into stream_store_days (account_id, day, store_id, streams)
select account_id, day, store_id, sum(streams) from stream_days where day = ?::date group by 1, 2, 3
on conflict (account_id, day, store_id) do update set streams = excluded.streams`;

const ROLLUP_ACCOUNT_DAYS = `
insert into stream_account_days (account_id, day, streams)
select account_id, day, sum(streams) from stream_days where day = ?::date group by 1, 2
on conflict (account_id, day) do update set streams = excluded.streams`;

const ROLLUP_RELEASE_DAYS = `
insert into stream_release_days (account_id, day, release_id, streams)
select account_id, day, release_id, sum(streams) from stream_days where day = ?::date group by 1, 2, 3
on conflict (account_id, day, release_id) do update set streams = excluded.streams`;

/**
 * The day's month of one breakdown (`store_id` or `release_id`), for the accounts that streamed that
 * day, from that breakdown's daily rollup. Parameters: month, month, month, day.
 */
const rollupMonths = (breakdown: 'store' | 'release') => `
insert into stream_${breakdown}_months (account_id, month, ${breakdown}_id, streams)
select account_id, ?::date, ${breakdown}_id, sum(streams) from stream_${breakdown}_days
where day >= ?::date and day < (?::date + interval '1 month')::date
  and account_id in (select distinct account_id from stream_days where day = ?::date)
group by account_id, ${breakdown}_id
on conflict (account_id, month, ${breakdown}_id) do update set streams = excluded.streams`;

const ROLLUP_STORE_MONTHS = rollupMonths('store');
const ROLLUP_RELEASE_MONTHS = rollupMonths('release');

const RECORD = `
insert into stream_ingestions (day, rows, ingested_at) values (?::date, ?, ?)
on conflict (day) do update set rows = excluded.rows, ingested_at = excluded.ingested_at`;

async function upsertChunks(em: EntityManager, sql: string, rows: readonly object[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await em.execute(sql, [JSON.stringify(rows.slice(i, i + CHUNK))]);
  }
}

/**
 * Writes one day's streams: a raw row per live release × store and per track, and the day's rollups,
 * in one transaction. Idempotent (ON CONFLICT with the same deterministic figures): re-running a day
 * leaves every table exactly as one run does. Returns the number of release rows.
 */
export async function ingestDay(
  em: EntityManager,
  day: Day,
  options: { reports?: StreamReports; now?: Date } = {},
): Promise<number> {
  const reports = options.reports ?? sandboxStreamReports;
  const sources = await sourcesOn(em, day);
  const releaseRows: object[] = [];
  const trackRows: object[] = [];
  for (const source of sources) {
    const tracks = reports.trackStreams(source, day);
    if (tracks.length === 0) continue;
    const base = { release_id: source.releaseId, day, store_id: source.storeId };
    releaseRows.push({
      ...base,
      account_id: source.accountId,
      streams: tracks.reduce((sum, t) => sum + t.streams, 0),
    });
    for (const track of tracks) {
      if (source.trackIds.includes(track.trackId))
        trackRows.push({ ...base, track_id: track.trackId, streams: track.streams });
    }
  }
  const month = monthOf(day);
  await em.transactional(async (tx) => {
    await upsertChunks(tx, UPSERT_DAYS, releaseRows);
    await upsertChunks(tx, UPSERT_TRACK_DAYS, trackRows);
    await tx.execute(ROLLUP_STORE_DAYS, [day]);
    await tx.execute(ROLLUP_ACCOUNT_DAYS, [day]);
    await tx.execute(ROLLUP_RELEASE_DAYS, [day]);
    await tx.execute(ROLLUP_STORE_MONTHS, [month, month, month, day]);
    await tx.execute(ROLLUP_RELEASE_MONTHS, [month, month, month, day]);
    await tx.execute(RECORD, [day, releaseRows.length, options.now ?? new Date()]);
  });
  return releaseRows.length;
}

/**
 * Ingests every complete day (up to yesterday by the clock) that is not ingested yet, oldest first,
 * from the first day any store went live: the daily run and the backfill after days were missed.
 */
export async function ingestMissedDays(
  em: EntityManager,
  clock: Clock,
  options: { reports?: StreamReports } = {},
): Promise<{ days: number; rows: number }> {
  const yesterday = addDays(dayOf(clock.now()), -1);
  const [first] = await em.execute<{ first: string | null }[]>(
    `select to_char(min((coalesce(live_at, updated_at) at time zone 'UTC')::date), 'YYYY-MM-DD') as first
     from deliveries where status in ('live', 'takedown_requested')`,
  );
  if (!first?.first || first.first > yesterday) return { days: 0, rows: 0 };
  const done = await em.execute<{ day: string }[]>(
    `select to_char(day, 'YYYY-MM-DD') as day from stream_ingestions where day between ?::date and ?::date`,
    [first.first, yesterday],
  );
  const ingested = new Set(done.map((row) => row.day));
  let days = 0;
  let rows = 0;
  for (let day = first.first; day <= yesterday; day = addDays(day, 1)) {
    if (ingested.has(day)) continue;
    rows += await ingestDay(em, day, { ...options, now: clock.now() });
    days += 1;
  }
  return { days, rows };
}

/** The last ingested day and when it was written (null before the first ingestion). */
export async function readFreshness(
  em: EntityManager,
): Promise<{ ingestedThrough: Day | null; ingestedAt: Date | null }> {
  const [row] = await em.execute<{ day: string | null; ingested_at: Date | string | null }[]>(
    `select to_char(day, 'YYYY-MM-DD') as day, ingested_at from stream_ingestions order by day desc limit 1`,
  );
  return {
    ingestedThrough: row?.day ?? null,
    ingestedAt: row?.ingested_at ? new Date(row.ingested_at) : null,
  };
}
