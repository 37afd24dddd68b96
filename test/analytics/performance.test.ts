import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domains/analytics/days.ts';
import { ingestDay, ingestMissedDays } from '../../src/domains/analytics/ingest.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { liveRelease } from './support.ts';

const START = new Date('2026-01-05T09:00:00.000Z');
const FIRST_DAY = '2026-01-05';
const LAST_DAY = addDays(FIRST_DAY, 89);
/**
 * The sandbox's figures are seeded by the release id: this one is popular enough that every store,
 * the smallest included, still has streams in the tail (a small random release can round to none).
 */
const RELEASE_ID = '00000000-0000-4000-8000-000000000000';

describe('streaming analytics over 90 test-clock days on three stores', () => {
  const app = useTestApp();
  let owner: Awaited<ReturnType<typeof accountWithToken>>;
  let other: Awaited<ReturnType<typeof accountWithToken>>;
  let releaseId: string;

  const sql = <T>(text: string, params: unknown[] = []) => app().em().execute<T[]>(text, params);

  const tool = async (token: string, name: string, args: Record<string, unknown>) => {
    const response = await request(app().url, 'POST', '/api/mcp', {
      token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(response.status).toBe(200);
    return response.body.error
      ? { error: response.body.error }
      : { result: JSON.parse(response.body.result.content[0].text) };
  };

  const rawTotal = async (from: string, to: string) => {
    const [row] = await sql<{ total: number; rows: number }>(
      `select coalesce(sum(streams), 0)::float8 as total, count(*)::int as rows from stream_days
       where account_id = ? and day between ?::date and ?::date`,
      [owner.accountId, from, to],
    );
    return row!;
  };

  it('ingests one row per live release × store × day (the video-music platform included), per track too', async () => {
    owner = await accountWithToken(app().em());
    other = await accountWithToken(app().em());
    ({ releaseId } = await liveRelease(app().em(), owner.accountId, {
      id: RELEASE_ID,
      storeIds: [301, 302, 306],
      liveAt: START,
      trackCount: 3,
    }));
    const clock = new ManualClock(START);
    clock.advance(90 * 86_400);
    expect(await ingestMissedDays(app().em(), clock)).toEqual({ days: 90, rows: 360 });
    // A second run finds nothing missing.
    expect(await ingestMissedDays(app().em(), clock)).toEqual({ days: 0, rows: 0 });

    const stores = await sql<{ store_id: number; rows: number }>(
      'select store_id, count(*)::int as rows from stream_days group by store_id order by store_id',
    );
    expect(stores).toEqual([
      { store_id: -1300, rows: 90 },
      { store_id: 301, rows: 90 },
      { store_id: 302, rows: 90 },
      { store_id: 306, rows: 90 },
    ]);
    const [mismatch] = await sql<{ n: number }>(
      `select count(*)::int as n from stream_days d
       where d.streams <> (select sum(t.streams) from stream_track_days t
                           where t.release_id = d.release_id and t.day = d.day and t.store_id = d.store_id)`,
    );
    expect(mismatch!.n).toBe(0);
    const [trackRows] = await sql<{ n: number }>('select count(*)::int as n from stream_track_days');
    expect(trackRows!.n).toBe(360 * 3);
  });

  it('has a release-day peak, a long tail, a weekly rhythm and differing store shares', async () => {
    const days = await sql<{ day: string; streams: number }>(
      `select to_char(day, 'YYYY-MM-DD') as day, sum(streams)::float8 as streams from stream_days
       group by day order by day`,
    );
    const first = days[0]!.streams;
    expect(Math.max(...days.map((d) => d.streams))).toBe(first);
    const lastWeek = days.slice(-7).reduce((sum, d) => sum + d.streams, 0) / 7;
    expect(lastWeek).toBeGreaterThan(0);
    expect(lastWeek).toBeLessThan(first / 3);
    // Weekends over midweek in the tail (weeks 5..12).
    const tail = days.slice(28);
    const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();
    const mean = (list: typeof tail) => list.reduce((sum, d) => sum + d.streams, 0) / list.length;
    expect(mean(tail.filter((d) => [5, 6].includes(weekday(d.day))))).toBeGreaterThan(
      mean(tail.filter((d) => [1, 2].includes(weekday(d.day)))),
    );
    const shares = await sql<{ store_id: number; streams: number }>(
      'select store_id, sum(streams)::float8 as streams from stream_days group by store_id order by 2 desc',
    );
    expect(new Set(shares.map((s) => s.streams)).size).toBe(4);
    expect(shares[0]!.store_id).toBe(301);
  });

  it('re-running a day (ON CONFLICT) leaves raw rows and rollups exactly as they were', async () => {
    const snapshot = async () =>
      sql<{ t: string; n: number; total: number }>(
        `select 'raw' as t, count(*)::int as n, sum(streams)::float8 as total from stream_days
         union all select 'track', count(*)::int, sum(streams)::float8 from stream_track_days
         union all select 'store', count(*)::int, sum(streams)::float8 from stream_store_days
         union all select 'release', count(*)::int, sum(streams)::float8 from stream_release_days
         union all select 'month', count(*)::int, sum(streams)::float8 from stream_release_months
         union all select 'account', count(*)::int, sum(streams)::float8 from stream_account_days
         union all select 'store month', count(*)::int, sum(streams)::float8 from stream_store_months
         union all select 'country', count(*)::int, sum(streams)::float8 from stream_country_days
         union all select 'release country', count(*)::int, sum(streams)::float8 from stream_release_country_days
         union all select 'release country month', count(*)::int, sum(streams)::float8
           from stream_release_country_months
         union all select 'account country', count(*)::int, sum(streams)::float8 from stream_account_country_days
         union all select 'account country month', count(*)::int, sum(streams)::float8
           from stream_account_country_months`,
      );
    const before = await snapshot();
    await ingestDay(app().em(), '2026-02-10');
    await ingestDay(app().em(), LAST_DAY);
    expect(await snapshot()).toEqual(before);
    // Every rollup equals the raw rows it sums.
    const [drift] = await sql<{ n: number }>(
      `select count(*)::int as n from (
         select account_id, day, store_id, sum(streams) as s from stream_days group by 1, 2, 3
       ) raw full join stream_store_days r using (account_id, day, store_id) where raw.s is distinct from r.streams`,
    );
    expect(drift!.n).toBe(0);
    const [accountDrift] = await sql<{ n: number }>(
      `select count(*)::int as n from (
         select account_id, day, sum(streams) as s from stream_days group by 1, 2
       ) raw full join stream_account_days r using (account_id, day) where raw.s is distinct from r.streams`,
    );
    expect(accountDrift!.n).toBe(0);
  });

  it('get_performance_summary: totals equal the raw rows, periodChangePct by hand, top store and releases', async () => {
    const fromDate = addDays(LAST_DAY, -29);
    const { result } = await tool(owner.token, 'get_performance_summary', { fromDate, toDate: LAST_DAY });
    const current = await rawTotal(fromDate, LAST_DAY);
    const prior = await rawTotal(addDays(fromDate, -30), addDays(fromDate, -1));
    // The spec's fields in its order, then the additions.
    expect(Object.keys(result)).toEqual([
      'fromDate',
      'toDate',
      'releases',
      'metrics',
      'kpis',
      'topStores',
      'topReleases',
      'storeSeries',
      'topCountries',
    ]);
    expect(result.fromDate).toBe(fromDate);
    expect(result.toDate).toBe(LAST_DAY);
    expect(result.releases).toEqual({ total: 1, withDistributorId: 1 });
    expect(result.metrics).toHaveLength(30);
    expect(result.metrics[0]).toEqual({ eventDate: fromDate, streamsCount: expect.any(Number) });
    expect(result.metrics.reduce((sum: number, m: { streamsCount: number }) => sum + m.streamsCount, 0)).toBe(
      current.total,
    );
    expect(result.kpis.totalStreams).toBe(current.total);
    expect(result.kpis.avgDailyStreams).toBe(Math.round((current.total / 30) * 100) / 100);
    expect(result.kpis.periodChangePct).toBe(
      Math.round(((current.total - prior.total) / prior.total) * 100 * 100) / 100,
    );
    const [top] = await sql<{ store_id: number; streams: number }>(
      `select store_id, sum(streams)::float8 as streams from stream_days where day between ?::date and ?::date
       group by store_id order by 2 desc limit 1`,
      [fromDate, LAST_DAY],
    );
    expect(result.kpis.topStore).toEqual({
      name: 'Spotify',
      share: Math.round((top!.streams / current.total) * 10_000) / 10_000,
    });
    expect(result.topStores.map((s: { id: number }) => s.id)).toContain(-1300);
    expect(result.topStores.find((s: { id: number }) => s.id === -1300).name).toBe('Video-music platform');
    expect(result.topStores.reduce((sum: number, s: { total: number }) => sum + s.total, 0)).toBe(
      current.total,
    );
    expect(result.topReleases).toEqual([
      {
        releaseId,
        title: 'Harbour Lines',
        primaryArtistName: 'Ada Artist',
        coverArtFileUrl: '/api/files/cover-art/x/c.png',
        streamsCount: current.total,
      },
    ]);
  });

  it('a two-year window sums the monthly and daily rollups to the raw total; limits apply', async () => {
    const { result } = await tool(owner.token, 'get_performance_summary', {
      fromDate: '2025-01-20',
      toDate: '2027-01-19',
      topStoresLimit: 2,
    });
    const all = await rawTotal('2025-01-20', '2027-01-19');
    expect(result.metrics).toHaveLength(730);
    expect(result.kpis.totalStreams).toBe(all.total);
    expect(result.topReleases[0].streamsCount).toBe(all.total);
    expect(result.topStores).toHaveLength(2);
    // Partial months at the edges, read as their inside days or as the month less its outside days,
    // and windows inside one month.
    for (const [from, to] of [
      ['2026-01-20', '2026-03-10'],
      ['2026-01-03', '2026-03-28'],
      ['2026-02-10', '2026-02-20'],
      ['2026-02-02', '2026-02-27'],
      ['2026-02-01', '2026-02-28'],
      ['2026-01-05', '2026-01-31'],
      ['2026-03-15', '2026-04-10'],
    ] as const) {
      const edge = await tool(owner.token, 'get_performance_summary', { fromDate: from, toDate: to });
      const expected = (await rawTotal(from, to)).total;
      expect(edge.result.kpis.totalStreams, `${from}..${to}`).toBe(expected);
      expect(edge.result.topReleases[0].streamsCount, `${from}..${to}`).toBe(expected);
      const stores = edge.result.topStores.reduce((sum: number, s: { total: number }) => sum + s.total, 0);
      expect(stores, `${from}..${to}`).toBe(expected);
    }
  });

  it('periodChangePct is null without prior data', async () => {
    const { result } = await tool(owner.token, 'get_performance_summary', {
      fromDate: FIRST_DAY,
      toDate: addDays(FIRST_DAY, 29),
    });
    expect(result.kpis.periodChangePct).toBeNull();
    expect(result.kpis.totalStreams).toBe((await rawTotal(FIRST_DAY, addDays(FIRST_DAY, 29))).total);
  });

  it('defaults to the trailing 30 days and refuses bad windows with 400 naming the field', async () => {
    const { result } = await tool(owner.token, 'get_performance_summary', {});
    const today = new Date().toISOString().slice(0, 10);
    expect(result.toDate).toBe(today);
    expect(result.fromDate).toBe(addDays(today, -29));
    expect(result.metrics).toHaveLength(30);

    const cases: [Record<string, unknown>, string][] = [
      [{ fromDate: '2026-03-01', toDate: '2026-02-01' }, 'toDate'],
      [{ fromDate: '2024-01-01', toDate: '2026-03-01' }, 'fromDate'],
      [{ fromDate: '2026-02-30' }, 'fromDate'],
      [{ toDate: '03/01/2026' }, 'toDate'],
    ];
    for (const [args, field] of cases) {
      const { error } = await tool(owner.token, 'get_performance_summary', args);
      expect(error).toMatchObject({
        code: 400,
        data: { type: 'invalid_request_error', details: [{ path: field }] },
      });
    }
    const limit = await tool(owner.token, 'get_performance_summary', { topReleasesLimit: 51 });
    expect(limit.error).toMatchObject({
      data: { type: 'invalid_request_error', details: [{ path: 'topReleasesLimit' }] },
    });

    const rest = await request(
      app().url,
      'GET',
      '/v1/analytics/summary?from_date=2026-03-01&to_date=2026-02-01',
      {
        token: owner.token,
      },
    );
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ type: 'invalid_request_error', details: [{ path: 'to_date' }] });
  });

  it('get_release_performance: per store and track, topStore null when filtered to one store, source cache', async () => {
    const fromDate = addDays(LAST_DAY, -29);
    const { result } = await tool(owner.token, 'get_release_performance', {
      releaseId,
      fromDate,
      toDate: LAST_DAY,
      includeTracks: true,
    });
    const total = (await rawTotal(fromDate, LAST_DAY)).total;
    expect(Object.keys(result)).toEqual([
      'releaseId',
      'fromDate',
      'toDate',
      'distributorId',
      'metrics',
      'kpis',
      'distributors',
      'tracks',
      'source',
      'storeSeries',
      'topCountries',
    ]);
    expect(result).toMatchObject({ releaseId, distributorId: null, source: 'cache' });
    expect(result.kpis.totalStreams).toBe(total);
    expect(result.kpis.topStore.name).toBe('Spotify');
    expect(result.distributors).toHaveLength(4);
    expect(result.tracks).toHaveLength(3);
    expect(result.tracks[0]).toEqual({
      trackId: expect.any(String),
      trackName: expect.stringMatching(/^Track \d$/),
      artistName: 'Ada Artist',
      streamsCount: expect.any(Number),
    });
    expect(result.tracks.reduce((sum: number, t: { streamsCount: number }) => sum + t.streamsCount, 0)).toBe(
      total,
    );

    const one = await tool(owner.token, 'get_release_performance', {
      releaseId,
      fromDate,
      toDate: LAST_DAY,
      distributorId: -1300,
    });
    const [video] = await sql<{ total: number }>(
      `select sum(streams)::float8 as total from stream_days where store_id = -1300 and day between ?::date and ?::date`,
      [fromDate, LAST_DAY],
    );
    expect(one.result.distributorId).toBe(-1300);
    expect(one.result.kpis.topStore).toBeNull();
    expect(one.result.kpis.totalStreams).toBe(video!.total);
    expect(one.result.distributors).toEqual([
      { id: -1300, name: 'Video-music platform', total: video!.total },
    ]);
    expect(one.result.tracks).toEqual([]);

    const unknownStore = await tool(owner.token, 'get_release_performance', { releaseId, distributorId: 99 });
    expect(unknownStore.error).toMatchObject({ code: 400, data: { details: [{ path: 'distributorId' }] } });
  });

  it("another user's release is 403 on the tool, GraphQL and REST", async () => {
    const { error } = await tool(other.token, 'get_release_performance', { releaseId });
    expect(error).toMatchObject({ code: 403, data: { type: 'permission_error' } });
    const rest = await request(app().url, 'GET', `/v1/releases/${releaseId}/analytics`, {
      token: other.token,
    });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ type: 'permission_error', code: 'release_not_owned' });
    const unknown = await request(app().url, 'GET', `/v1/releases/${crypto.randomUUID()}/analytics`, {
      token: owner.token,
    });
    expect(unknown.status).toBe(404);
  });

  it('REST and GraphQL answer the same figures with their freshness', async () => {
    const fromDate = addDays(LAST_DAY, -6);
    const rest = await request(
      app().url,
      'GET',
      `/v1/releases/${releaseId}/analytics?from_date=${fromDate}&to_date=${LAST_DAY}&include_tracks=true`,
      { token: owner.token },
    );
    expect(rest.status).toBe(200);
    expect(rest.body.freshness).toEqual({ ingestedThrough: LAST_DAY, ingestedAt: expect.any(String) });
    expect(rest.body.tracks).toHaveLength(3);
    const summary = await request(
      app().url,
      'GET',
      `/v1/analytics/summary?from_date=${fromDate}&to_date=${LAST_DAY}`,
      {
        token: owner.token,
      },
    );
    expect(summary.status).toBe(200);
    expect(summary.body.kpis.totalStreams).toBe(rest.body.kpis.totalStreams);
    const typed = await graphql(
      app().url,
      `query($from: String, $to: String) { performanceSummary(fromDate: $from, toDate: $to) {
         kpis { totalStreams } freshness { ingestedThrough } } }`,
      { from: fromDate, to: LAST_DAY },
      owner.token,
    );
    expect(typed.body.data.performanceSummary).toEqual({
      kpis: { totalStreams: rest.body.kpis.totalStreams },
      freshness: { ingestedThrough: LAST_DAY },
    });
  });

  it('a window past the last ingested day reads those days live from the distributor reports', async () => {
    const { result } = await tool(owner.token, 'get_release_performance', {
      releaseId,
      fromDate: addDays(LAST_DAY, -1),
      toDate: addDays(LAST_DAY, 2),
    });
    expect(result.source).toBe('live');
    const figures = result.metrics.map((m: { streamsCount: number }) => m.streamsCount);
    expect(figures.every((n: number) => n > 0)).toBe(true);
    // Ingesting those days afterwards writes exactly what was read live.
    await ingestDay(app().em(), addDays(LAST_DAY, 1));
    await ingestDay(app().em(), addDays(LAST_DAY, 2));
    const again = await tool(owner.token, 'get_release_performance', {
      releaseId,
      fromDate: addDays(LAST_DAY, -1),
      toDate: addDays(LAST_DAY, 2),
    });
    expect(again.result.source).toBe('cache');
    expect(again.result.metrics).toEqual(result.metrics);
  });

  it('a fraud-only token cannot read analytics', async () => {
    const fraudOnly = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
    const rest = await request(app().url, 'GET', '/v1/analytics/summary', { token: fraudOnly.token });
    expect(rest.status).toBe(403);
  });
});
