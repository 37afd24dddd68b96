import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { checkedCountries } from './countries.ts';
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

const UPSERT_COUNTRY_DAYS = `
insert into stream_country_days (release_id, day, store_id, country, account_id, streams)
select * from jsonb_to_recordset(?::jsonb)
  as x(release_id uuid, day date, store_id int, country text, account_id uuid, streams bigint)
on conflict (release_id, day, store_id, country) do update
  set streams = excluded.streams, account_id = excluded.account_id`;

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

const ROLLUP_ACCOUNT_COUNTRY_DAYS = `
insert into stream_account_country_days (account_id, day, country, streams)
select account_id, day, country, sum(streams) from stream_country_days where day = ?::date group by 1, 2, 3
on conflict (account_id, day, country) do update set streams = excluded.streams`;

const ROLLUP_RELEASE_COUNTRY_DAYS = `
insert into stream_release_country_days (release_id, day, country, streams)
select release_id, day, country, sum(streams) from stream_country_days where day = ?::date group by 1, 2, 3
on conflict (release_id, day, country) do update set streams = excluded.streams`;

/**
 * The day's month of one monthly rollup (`<rollup>_months`, keyed owner, month, key), recomputed from
 * its daily rollup (`<rollup>_days`) for the accounts or releases that streamed that day.
 * Parameters: month, month, month, day.
 */
const rollupMonths = (rollup: string, owner: 'account_id' | 'release_id', key: string) => `
insert into ${rollup}_months (${owner}, month, ${key}, streams)
select ${owner}, ?::date, ${key}, sum(streams) from ${rollup}_days
where day >= ?::date and day < (?::date + interval '1 month')::date
  and ${owner} in (select distinct ${owner} from stream_days where day = ?::date)
group by ${owner}, ${key}
on conflict (${owner}, month, ${key}) do update set streams = excluded.streams`;

const ROLLUP_MONTHS = [
  rollupMonths('stream_store', 'account_id', 'store_id'),
  rollupMonths('stream_release', 'account_id', 'release_id'),
  rollupMonths('stream_account_country', 'account_id', 'country'),
  rollupMonths('stream_release_country', 'release_id', 'country'),
];

/**
 * The layout `ingestDay` writes, recorded with each day: a day recorded by an older layout (1: before
 * the country tables) is ingested again by the next run, so its new tables fill in.
 */
const INGEST_VERSION = 2;

const RECORD = `
insert into stream_ingestions (day, rows, ingested_at, version) values (?::date, ?, ?, ?)
on conflict (day) do update
  set rows = excluded.rows, ingested_at = excluded.ingested_at, version = excluded.version`;

async function upsertChunks(em: EntityManager, sql: string, rows: readonly object[]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await em.execute(sql, [JSON.stringify(rows.slice(i, i + CHUNK))]);
  }
}

/**
 * Writes one day's streams: a raw row per live release × store, per track and per country, and the
 * day's rollups, in one transaction. Idempotent (ON CONFLICT with the same deterministic figures):
 * re-running a day leaves every table exactly as one run does. Returns the number of release rows.
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
  const countryRows: object[] = [];
  for (const source of sources) {
    const tracks = reports.trackStreams(source, day);
    if (tracks.length === 0) continue;
    const base = { release_id: source.releaseId, day, store_id: source.storeId };
    const streams = tracks.reduce((sum, t) => sum + t.streams, 0);
    releaseRows.push({ ...base, account_id: source.accountId, streams });
    for (const track of tracks) {
      if (source.trackIds.includes(track.trackId))
        trackRows.push({ ...base, track_id: track.trackId, streams: track.streams });
    }
    for (const entry of checkedCountries(source, day, streams, reports.countryStreams(source, day))) {
      countryRows.push({
        ...base,
        country: entry.country,
        account_id: source.accountId,
        streams: entry.streams,
      });
    }
  }
  const month = monthOf(day);
  await em.transactional(async (tx) => {
    await upsertChunks(tx, UPSERT_DAYS, releaseRows);
    await upsertChunks(tx, UPSERT_TRACK_DAYS, trackRows);
    await upsertChunks(tx, UPSERT_COUNTRY_DAYS, countryRows);
    for (const rollup of [
      ROLLUP_STORE_DAYS,
      ROLLUP_ACCOUNT_DAYS,
      ROLLUP_RELEASE_DAYS,
      ROLLUP_ACCOUNT_COUNTRY_DAYS,
      ROLLUP_RELEASE_COUNTRY_DAYS,
    ])
      await tx.execute(rollup, [day]);
    for (const rollup of ROLLUP_MONTHS) await tx.execute(rollup, [month, month, month, day]);
    await tx.execute(RECORD, [day, releaseRows.length, options.now ?? new Date(), INGEST_VERSION]);
  });
  return releaseRows.length;
}

/**
 * Ingests every complete day (up to yesterday by the clock) that is not ingested yet, or was by an
 * older layout, oldest first, from the first day any store went live: the daily run and the backfill
 * after days were missed.
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
    `select to_char(day, 'YYYY-MM-DD') as day from stream_ingestions
     where day between ?::date and ?::date and version >= ?`,
    [first.first, yesterday, INGEST_VERSION],
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
