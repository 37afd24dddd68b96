/**
 * Streaming analytics at catalogue scale: a label account with 1,000 releases, every store of the
 * catalogue plus the video-music platform (28 stores), two years of daily rows, loaded with set-based
 * SQL (generate_series), then the rollups built the way ingestion keeps them. Measures the two-year
 * `get_performance_summary` and one release's two-year performance in-process and over REST, beside
 * the same daily series read from the raw rows (what the rollups save). Every read asks for the per-store
 * series and the top countries too, as the REST routes do (the country rollups are loaded from a fixed
 * split of each release's days).
 * Target (issue 18): summary p99 ≤ 50 ms.
 *
 * Scale: BENCH_ANALYTICS_RELEASES (default 1000), BENCH_ANALYTICS_DAYS (default 730). Loading stops
 * early when it passes BENCH_ANALYTICS_LOAD_SECONDS (default 420) and says what it loaded. The
 * database is dropped at the end unless BENCH_ANALYTICS_KEEP=1.
 */
import pg from 'pg';
import {
  PERFORMANCE_SUMMARY_FIELDS,
  RELEASE_PERFORMANCE_FIELDS,
  STREAM_BREAKDOWN_FIELDS,
} from '../facades/selections.ts';
import { authenticate } from '../schema/context.ts';
import { prepareOperation, runOperation } from '../schema/execute.ts';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { addDays, dayOf } from '../src/domains/analytics/days.ts';
import { STORES, VIDEO_MUSIC_STORE } from '../src/domains/catalog/stores.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { measureHttp, measureInProcess, printTable } from './support/measure.ts';
import { benchApp } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RELEASES = Number(process.env.BENCH_ANALYTICS_RELEASES ?? 1000);
const DAYS = Number(process.env.BENCH_ANALYTICS_DAYS ?? 730);
const LOAD_SECONDS = Number(process.env.BENCH_ANALYTICS_LOAD_SECONDS ?? 420);
const BATCH = 50;

// 2.5 GB at full scale: dropped at the end unless asked to keep it for a look (BENCH_ANALYTICS_KEEP=1).
const bench = await benchApp('tributary_bench_analytics', {
  keepDatabase: Boolean(process.env.BENCH_ANALYTICS_KEEP),
});
const db = new pg.Client({ connectionString: bench.databaseUrl });
await db.connect();
const accountId = bench.account.accountId;
const toDate = addDays(dayOf(new Date()), -1);
const fromDate = addDays(toDate, -(DAYS - 1));
const storeIds = [...STORES.map((s) => s.storeId), VIDEO_MUSIC_STORE.storeId];
const span = DAYS === 730 ? '2 years' : `${DAYS} days`;
const elapsed = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

try {
  const started = performance.now();
  await db.query(`set synchronous_commit = off; set maintenance_work_mem = '512MB'; set work_mem = '256MB'`);
  await db.query(
    `insert into releases (id, account_id, status, revision, draft_status, payload, title, primary_artist_name,
                           token_offset, credits_spent, aggregate_status, submitted_at, created_at, updated_at)
     select gen_random_uuid(), $1, 'submitted', 1, 'collecting',
            jsonb_build_object('release', jsonb_build_object('cover_art_file_url', '/api/files/cover-art/x/' || n || '.png'), 'tracks', '[]'::jsonb),
            'Release ' || n, 'Artist ' || (n % 97), false, 1, 'distributed', now(), now(), now()
     from generate_series(1, $2::int) n`,
    [accountId, RELEASES],
  );
  await db.query(
    `insert into deliveries (id, release_id, store_id, status, status_text, live_at, added_after_distribution, created_at, updated_at)
     select gen_random_uuid(), r.id, s, 'live', 'Live', $2::date - 200, false, now(), now()
     from releases r cross join unnest($3::int[]) s where r.account_id = $1 and s > 0`,
    [accountId, fromDate, storeIds],
  );
  // Raw rows go in without their indexes, which are built once afterwards.
  await db.query(
    'alter table stream_days drop constraint stream_days_pkey; drop index stream_days_day_index',
  );
  const ids = (
    await db.query<{ id: string }>('select id from releases where account_id = $1 order by id', [accountId])
  ).rows.map((r) => r.id);
  let loadedReleases = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    if ((performance.now() - started) / 1000 > LOAD_SECONDS) break;
    await db.query(
      `with r as (
         select id, n, 40 + 2400 * power(abs(hashint8(n)) / 9223372036854775807.0, 3) as popularity,
                (abs(hashint8(n + 7)) % 365)::int as age0
         from unnest($1::uuid[]) with ordinality as x(id, n)
       ), s as (
         select id as store_id, (0.6 + 0.8 * (abs(hashint4(id)) % 1000) / 1000.0)
                * case id when 301 then 0.34 when 302 then 0.15 when 304 then 0.08 when 305 then 0.06
                          when 319 then 0.08 when -1300 then 0.11 else 0.02 end as share
         from unnest($2::int[]) id
       )
       insert into stream_days (release_id, day, store_id, account_id, streams)
       select r.id, d.day::date, s.store_id, $3::uuid,
              round(r.popularity * s.share
                * (0.08 + 0.82 * exp(-(r.age0 + d.i) / 9.0) + 0.2 * exp(-(r.age0 + d.i) / 120.0))
                * (array[1.08, 0.88, 0.9, 0.94, 0.97, 1.12, 1.15])[extract(dow from d.day)::int + 1]
                * (0.8 + 0.4 * (abs(hashint8(r.n * 100000000 + s.store_id * 10000 + d.i)) % 1000) / 1000.0))::bigint
       from r cross join s
       cross join lateral (select g::date as day, (g::date - $4::date) as i
                           from generate_series($4::date, $5::date, interval '1 day') g) d`,
      [ids.slice(i, i + BATCH), storeIds, accountId, fromDate, toDate],
    );
    loadedReleases = Math.min(ids.length, i + BATCH);
    if (loadedReleases % 200 === 0)
      console.log(`  loaded ${loadedReleases} releases (${elapsed(started)} s)`);
  }
  const rawRows = Number((await db.query('select count(*) from stream_days')).rows[0].count);
  console.log(
    `raw rows loaded: ${rawRows} (${loadedReleases} releases × ${storeIds.length} stores × ${DAYS} days) in ${elapsed(started)} s`,
  );
  let step = performance.now();
  await db.query('alter table stream_days add primary key (release_id, day, store_id)');
  await db.query('create index stream_days_day_index on stream_days (day)');
  console.log(`  raw indexes built in ${elapsed(step)} s`);
  step = performance.now();
  // In (account, day) order, as the daily ingestion writes them.
  await db.query(
    `insert into stream_store_days
     select account_id, day, store_id, sum(streams) from stream_days group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_release_days
     select account_id, day, release_id, sum(streams) from stream_days group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_account_days
     select account_id, day, sum(streams) from stream_store_days group by 1, 2 order by 1, 2`,
  );
  await db.query(
    `insert into stream_release_months
     select account_id, date_trunc('month', day)::date, release_id, sum(streams) from stream_release_days
     group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_store_months
     select account_id, date_trunc('month', day)::date, store_id, sum(streams) from stream_store_days
     group by 1, 2, 3 order by 1, 2, 3`,
  );
  // Countries: each release's day split over twelve countries (shares moved per release), the shape the
  // reads see; the raw per-store country rows, read only for one store of one release, are left out.
  await db.query(
    `insert into stream_release_country_days
     select d.release_id, d.day, c.country, sum(round(d.streams * c.share * (0.7 + 0.6 * (abs(hashtext(d.release_id::text || c.country)) % 1000) / 1000.0)))::bigint
     from stream_release_days d
     cross join (values ('US', 0.3), ('GB', 0.09), ('DE', 0.08), ('BR', 0.08), ('MX', 0.06), ('FR', 0.06),
                        ('IN', 0.06), ('JP', 0.05), ('CA', 0.05), ('AU', 0.04), ('ES', 0.04), ('NL', 0.03))
                c(country, share)
     group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_release_country_months
     select release_id, date_trunc('month', day)::date, country, sum(streams) from stream_release_country_days
     group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_account_country_days
     select r.account_id, c.day, c.country, sum(c.streams) from stream_release_country_days c
     join releases r on r.id = c.release_id group by 1, 2, 3 order by 1, 2, 3`,
  );
  await db.query(
    `insert into stream_account_country_months
     select account_id, date_trunc('month', day)::date, country, sum(streams) from stream_account_country_days
     group by 1, 2, 3 order by 1, 2, 3`,
  );
  // Version 2: days ingested with their countries (an older version would be ingested again).
  await db.query(
    `insert into stream_ingestions (day, rows, ingested_at, version)
     select g::date, $3::int, now(), 2 from generate_series($1::date, $2::date, interval '1 day') g`,
    [fromDate, toDate, loadedReleases * storeIds.length],
  );
  await db.query('vacuum analyze');
  console.log(`  rollups built in ${elapsed(step)} s; total load ${elapsed(started)} s`);
  const sizes = await db.query<{ name: string; rows: string; size: string }>(
    `select relname as name, n_live_tup::text as rows, pg_size_pretty(pg_total_relation_size(relid)) as size
     from pg_stat_user_tables where relname like 'stream_%' order by relname`,
  );
  for (const row of sizes.rows) console.log(`  ${row.name}: ${row.rows} rows, ${row.size}`);

  const services = await buildAppServices(
    loadConfig({ DATABASE_URL: bench.databaseUrl }),
    bench.orm,
    createLogger('silent'),
    'bench',
  );
  const principal = await authenticate(services, bench.account.token);
  const summaryDoc = prepareOperation(
    `query S($fromDate: String, $toDate: String, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      s: performanceSummary(fromDate: $fromDate, toDate: $toDate) { ${PERFORMANCE_SUMMARY_FIELDS} ${STREAM_BREAKDOWN_FIELDS} } }`,
  );
  const releaseDoc = prepareOperation(
    `query R($id: ID!, $fromDate: String, $toDate: String, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      r: releasePerformance(releaseId: $id, fromDate: $fromDate, toDate: $toDate) { ${RELEASE_PERFORMANCE_FIELDS} ${STREAM_BREAKDOWN_FIELDS} } }`,
  );
  const releaseId = ids[0]!;
  const run = (prepared: typeof summaryDoc, variables: Record<string, unknown>) => async () => {
    const result = await runOperation(services, prepared, { principal, channel: 'agent_tool', variables });
    if (result.errors.length > 0) throw result.errors[0];
  };
  const window = { fromDate, toDate };
  await measureInProcess('warm-up', run(summaryDoc, window), 2, 1);
  const summary = await measureInProcess(`summary, ${span}, in-process`, run(summaryDoc, window), SECONDS, 1);
  const summary30 = await measureInProcess(
    'summary, trailing 30 days, in-process',
    run(summaryDoc, { fromDate: addDays(toDate, -29), toDate }),
    SECONDS,
    1,
  );
  const release = await measureInProcess(
    `one release, ${span}, in-process`,
    run(releaseDoc, { id: releaseId, ...window }),
    SECONDS,
    1,
  );
  const auth = { authorization: `Bearer ${bench.account.token}` };
  const summaryRest = await measureHttp(
    `GET /v1/analytics/summary, ${span}`,
    { url: `${bench.app.url}/v1/analytics/summary?from_date=${fromDate}&to_date=${toDate}`, headers: auth },
    SECONDS,
    1,
  );
  const releaseRest = await measureHttp(
    `GET /v1/releases/{id}/analytics, ${span}`,
    {
      url: `${bench.app.url}/v1/releases/${releaseId}/analytics?from_date=${fromDate}&to_date=${toDate}`,
      headers: auth,
    },
    SECONDS,
    1,
  );
  // The same daily series straight from the raw rows, which the rollups spare every request.
  const raw = await measureInProcess(
    'daily series from raw rows (reference)',
    () =>
      db.query(
        'select day, sum(streams) from stream_days where account_id = $1 and day between $2 and $3 group by day',
        [accountId, fromDate, toDate],
      ),
    Math.max(SECONDS, 10),
    1,
  );
  printTable([summary, summary30, release, summaryRest, releaseRest, raw]);
  console.log(
    `\nscale: ${rawRows} raw rows (${loadedReleases} releases × ${storeIds.length} stores × ${DAYS} days), one account`,
  );
  console.log(`  summary p99, ${span}, in-process: ${summary.p99.toFixed(2)} ms (target ≤ 50 ms)`);
  console.log(`  raw-row series p50 / rollup summary p50: ${(raw.p50 / summary.p50).toFixed(1)}`);
  await closeAppServices(services);
} finally {
  await db.end();
  await bench.close();
}
