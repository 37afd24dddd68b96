import { describe, expect, it } from 'vitest';
import { addDays, eachDay } from '../../src/domains/analytics/days.ts';
import { ingestDay, ingestMissedDays } from '../../src/domains/analytics/ingest.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { liveRelease } from './support.ts';

const START = new Date('2026-01-20T09:00:00.000Z');
const FIRST_DAY = '2026-01-20';
const LAST_DAY = addDays(FIRST_DAY, 74); // 2026-04-04
// Ids whose sandbox popularity is high, so that even the small stores stream every day.
const RELEASE_IDS = [
  '7a1b0000-0000-4000-8000-000000000014',
  '7a1b0000-0000-4000-8000-000000000057',
  '7a1b0000-0000-4000-8000-000000000083',
];

interface Daily {
  eventDate: string;
  streamsCount: number;
}
interface Series {
  storeId: number | null;
  storeName: string;
  total: number;
  days: Daily[];
}
interface Country {
  country: string;
  name: string;
  total: number;
}
interface Read {
  metrics: Daily[];
  kpis: { totalStreams: number };
  storeSeries: Series[];
  topCountries: Country[];
  source?: string;
  topStores?: { id: number; total: number }[];
}

const BREAKDOWNS = `metrics { eventDate streamsCount } kpis { totalStreams }
  storeSeries(limit: $series) { storeId storeName total days { eventDate streamsCount } }
  topCountries(limit: $countries) { country name total }`;

/** The GraphQL answer's two additions, as REST and the tools carry them. */
const additions = (read: Read) => ({
  storeSeries: read.storeSeries.map((s) => ({
    storeId: s.storeId,
    storeName: s.storeName,
    total: s.total,
    days: s.days.map((d) => ({ eventDate: d.eventDate, streamsCount: d.streamsCount })),
  })),
  topCountries: read.topCountries,
});

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Every series lists every day of the window, and on each day the series add up to the daily total. */
function expectSeriesAddUp(read: Read, from: string, to: string) {
  const days = eachDay(from, to);
  expect(read.metrics.map((m) => m.eventDate)).toEqual(days);
  for (const series of read.storeSeries) {
    expect(series.days.map((d) => d.eventDate)).toEqual(days);
    expect(series.total).toBe(sum(series.days.map((d) => d.streamsCount)));
  }
  read.metrics.forEach((metric, i) => {
    const perStore = sum(read.storeSeries.map((s) => s.days[i]!.streamsCount));
    expect(perStore, metric.eventDate).toBe(metric.streamsCount);
  });
  const named = read.storeSeries.filter((s) => s.storeId !== null);
  expect(named.map((s) => s.total)).toEqual(named.map((s) => s.total).sort((a, b) => b - a));
  const other = read.storeSeries.findIndex((s) => s.storeId === null);
  if (other !== -1) expect(other).toBe(read.storeSeries.length - 1);
}

describe('per-store daily series and countries', () => {
  const app = useTestApp();
  let owner: Awaited<ReturnType<typeof accountWithToken>>;
  let other: Awaited<ReturnType<typeof accountWithToken>>;
  let releaseId: string;

  const sql = <T>(text: string, params: unknown[] = []) => app().em().execute<T[]>(text, params);

  const summary = async (from: string, to: string, series = 50, countries = 50, token = owner.token) => {
    const response = await graphql<{ performanceSummary: Read }>(
      app().url,
      `query($from: String, $to: String, $series: Int, $countries: Int) {
         performanceSummary(fromDate: $from, toDate: $to) { topStores { id total } ${BREAKDOWNS} } }`,
      { from, to, series, countries },
      token,
    );
    expect(response.body.errors).toBeUndefined();
    return response.body.data!.performanceSummary;
  };

  const release = async (
    from: string,
    to: string,
    options: { series?: number; countries?: number; distributorId?: number; token?: string } = {},
  ) =>
    graphql<{ releasePerformance: Read }>(
      app().url,
      `query($id: ID!, $from: String, $to: String, $store: Int, $series: Int, $countries: Int) {
         releasePerformance(releaseId: $id, fromDate: $from, toDate: $to, distributorId: $store) {
           source ${BREAKDOWNS} } }`,
      {
        id: releaseId,
        from,
        to,
        store: options.distributorId,
        series: options.series ?? 50,
        countries: options.countries ?? 50,
      },
      options.token ?? owner.token,
    );

  const tool = async (name: string, args: Record<string, unknown>) => {
    const response = await request(app().url, 'POST', '/api/mcp', {
      token: owner.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    return response.body.error
      ? { error: response.body.error }
      : { result: JSON.parse(response.body.result.content[0].text) };
  };

  /** Countries summed from the raw rows, for one release or the whole account. */
  const rawCountries = async (
    owned: { releaseId?: string; accountId?: string },
    from: string,
    to: string,
  ) => {
    const rows = await sql<{ country: string; total: number }>(
      `select country, sum(streams)::float8 as total from stream_country_days
       where (?::uuid is null or release_id = ?::uuid) and (?::uuid is null or account_id = ?::uuid)
         and day between ?::date and ?::date
       group by country`,
      [
        owned.releaseId ?? null,
        owned.releaseId ?? null,
        owned.accountId ?? null,
        owned.accountId ?? null,
        from,
        to,
      ],
    );
    return new Map(rows.map((row) => [row.country, row.total]));
  };

  /** Countries summed from a daily country rollup alone (no month rows). */
  const dailyRollupCountries = async (table: string, owner: string, id: string, from: string, to: string) => {
    const rows = await sql<{ country: string; total: number }>(
      `select country, sum(streams)::float8 as total from ${table}
       where ${owner} = ? and day between ?::date and ?::date group by country`,
      [id, from, to],
    );
    return new Map(rows.map((row) => [row.country, row.total]));
  };

  const asMap = (countries: readonly Country[]) => new Map(countries.map((c) => [c.country, c.total]));

  it('ingests a country split of every release × store × day that sums exactly to it, with its rollups', async () => {
    owner = await accountWithToken(app().em());
    other = await accountWithToken(app().em());
    ({ releaseId } = await liveRelease(app().em(), owner.accountId, {
      id: RELEASE_IDS[0],
      storeIds: [301, 302, 306, 317, 324],
      liveAt: START,
      trackCount: 3,
    }));
    await liveRelease(app().em(), owner.accountId, {
      id: RELEASE_IDS[1],
      storeIds: [301, 314],
      liveAt: new Date('2026-02-10T12:00:00.000Z'),
      title: 'Second Light',
    });
    await liveRelease(app().em(), other.accountId, {
      id: RELEASE_IDS[2],
      storeIds: [301, 302],
      liveAt: START,
    });
    const clock = new ManualClock(START);
    clock.advance(75 * 86_400);
    expect((await ingestMissedDays(app().em(), clock)).days).toBe(75);

    const [mismatch] = await sql<{ n: number; rows: number }>(
      `select count(*) filter (where d.streams is distinct from c.streams)::int as n, count(*)::int as rows
       from stream_days d
       left join (select release_id, day, store_id, sum(streams) as streams from stream_country_days
                  group by 1, 2, 3) c using (release_id, day, store_id)
       where d.streams > 0`,
    );
    expect(mismatch!.rows).toBeGreaterThan(800);
    expect(mismatch!.n).toBe(0);
    const [badCode] = await sql<{ n: number }>(
      `select count(*)::int as n from stream_country_days where country !~ '^[A-Z]{2}$' or streams <= 0`,
    );
    expect(badCode!.n).toBe(0);

    // Each rollup equals the raw rows it sums.
    const drift = async (rollup: string, owner: string, period: string) => {
      const [row] = await sql<{ n: number }>(
        `select count(*)::int as n from (
           select ${owner}, ${period} as period, country, sum(streams) as s from stream_country_days group by 1, 2, 3
         ) raw full join (select ${owner}, ${period === 'day' ? 'day' : 'month'} as period, country, streams
                          from ${rollup}) r using (${owner}, period, country)
         where raw.s is distinct from r.streams`,
      );
      return row!.n;
    };
    const month = `date_trunc('month', day)::date`;
    expect(await drift('stream_release_country_days', 'release_id', 'day')).toBe(0);
    expect(await drift('stream_account_country_days', 'account_id', 'day')).toBe(0);
    expect(await drift('stream_release_country_months', 'release_id', month)).toBe(0);
    expect(await drift('stream_account_country_months', 'account_id', month)).toBe(0);
  });

  it('re-ingesting days, and days written before countries existed, leaves every table as one run does', async () => {
    const snapshot = () =>
      sql<{ t: string; n: number; total: number }>(
        ['stream_days', 'stream_store_days', 'stream_account_days', 'stream_country_days']
          .concat(['stream_release_country_days', 'stream_release_country_months'])
          .concat(['stream_account_country_days', 'stream_account_country_months', 'stream_store_months'])
          .map((t) => `select '${t}' as t, count(*)::int as n, sum(streams)::float8 as total from ${t}`)
          .join(' union all '),
      );
    const before = await snapshot();
    await ingestDay(app().em(), '2026-02-14');
    await ingestDay(app().em(), '2026-02-14');
    await ingestDay(app().em(), LAST_DAY);
    expect(await snapshot()).toEqual(before);

    // January as an older ingestion left it: stream figures without countries, recorded as version 1.
    await sql(`delete from stream_country_days where day < '2026-02-01'`);
    await sql(`delete from stream_release_country_days where day < '2026-02-01'`);
    await sql(`delete from stream_account_country_days where day < '2026-02-01'`);
    await sql(`delete from stream_release_country_months where month = '2026-01-01'`);
    await sql(`delete from stream_account_country_months where month = '2026-01-01'`);
    await sql(`update stream_ingestions set version = 1 where day < '2026-02-01'`);
    expect(await snapshot()).not.toEqual(before);
    const clock = new ManualClock(new Date(`${addDays(LAST_DAY, 1)}T09:00:00.000Z`));
    expect((await ingestMissedDays(app().em(), clock)).days).toBe(12);
    expect(await snapshot()).toEqual(before);
    expect((await ingestMissedDays(app().em(), clock)).days).toBe(0);
  });

  it("the summary's store series add up to the daily totals, zero-filled, the rest of the stores as Other", async () => {
    // From before the first live day, over three calendar months.
    const [from, to] = ['2026-01-10', '2026-03-20'];
    const all = await summary(from, to);
    expectSeriesAddUp(all, from, to);
    expect(all.storeSeries.map((s) => s.storeId)).not.toContain(null);
    // Five stores of the first release, 314 of the second, and the video-music platform.
    expect(all.storeSeries.map((s) => s.storeId).sort((a, b) => a! - b!)).toEqual([
      -1300, 301, 302, 306, 314, 317, 324,
    ]);
    expect(all.storeSeries[0]).toMatchObject({ storeId: 301, storeName: 'Spotify' });
    // The series (daily rollup) and the top stores (month rollups and part-months) agree.
    expect(all.storeSeries.map((s) => ({ id: s.storeId, total: s.total }))).toEqual(all.topStores);
    for (const series of all.storeSeries) {
      expect(series.days.slice(0, 10).every((d) => d.streamsCount === 0)).toBe(true);
    }
    // Store 314 went live on February 10: zero every day before it.
    const late = all.storeSeries.find((s) => s.storeId === 314)!;
    expect(late.days.filter((d) => d.eventDate < '2026-02-10').every((d) => d.streamsCount === 0)).toBe(true);
    expect(late.days.find((d) => d.eventDate === '2026-02-10')!.streamsCount).toBeGreaterThan(0);

    const top3 = await summary(from, to, 3);
    expectSeriesAddUp(top3, from, to);
    expect(top3.storeSeries).toHaveLength(4);
    expect(top3.storeSeries.slice(0, 3)).toEqual(all.storeSeries.slice(0, 3));
    expect(top3.storeSeries[3]).toMatchObject({
      storeId: null,
      storeName: 'Other stores',
      total: sum(all.storeSeries.slice(3).map((s) => s.total)),
    });
  });

  it("a release's store series add up to its daily totals; with a store, that store's series alone", async () => {
    const [from, to] = ['2026-01-15', '2026-03-05'];
    const all = (await release(from, to)).body.data!.releasePerformance;
    expectSeriesAddUp(all, from, to);
    expect(all.storeSeries).toHaveLength(6);
    const two = (await release(from, to, { series: 2 })).body.data!.releasePerformance;
    expectSeriesAddUp(two, from, to);
    expect(two.storeSeries.map((s) => s.storeId)).toEqual([
      all.storeSeries[0]!.storeId,
      all.storeSeries[1]!.storeId,
      null,
    ]);

    const one = (await release(from, to, { distributorId: 317, series: 1 })).body.data!.releasePerformance;
    expectSeriesAddUp(one, from, to);
    expect(one.storeSeries).toEqual([all.storeSeries.find((s) => s.storeId === 317)]);
  });

  it("a release's countries sum to its total; days and month rollups agree with the raw rows", async () => {
    for (const [from, to] of [
      ['2026-01-25', '2026-03-20'],
      ['2026-02-01', '2026-02-28'],
      ['2026-02-03', '2026-03-30'],
      ['2026-01-01', '2026-04-04'],
      ['2026-03-10', '2026-03-12'],
    ] as const) {
      const read = (await release(from, to)).body.data!.releasePerformance;
      expect(read.source).toBe('CACHE');
      expect(sum(read.topCountries.map((c) => c.total)), `${from}..${to}`).toBe(read.kpis.totalStreams);
      const raw = await rawCountries({ releaseId }, from, to);
      expect(asMap(read.topCountries), `${from}..${to}`).toEqual(raw);
      expect(
        await dailyRollupCountries('stream_release_country_days', 'release_id', releaseId, from, to),
      ).toEqual(raw);

      const account = await summary(from, to);
      expect(sum(account.topCountries.map((c) => c.total)), `${from}..${to}`).toBe(account.kpis.totalStreams);
      const accountRaw = await rawCountries({ accountId: owner.accountId }, from, to);
      expect(asMap(account.topCountries), `${from}..${to}`).toEqual(accountRaw);
      expect(
        await dailyRollupCountries('stream_account_country_days', 'account_id', owner.accountId, from, to),
      ).toEqual(accountRaw);
    }
  });

  it('countries are a plausible mix, named in English, most first; one store has its own', async () => {
    const [from, to] = ['2026-02-01', '2026-03-31'];
    const read = (await release(from, to, { countries: 5 })).body.data!.releasePerformance;
    expect(read.topCountries).toHaveLength(5);
    expect(read.topCountries[0]).toMatchObject({ country: 'US', name: 'United States' });
    const totals = read.topCountries.map((c) => c.total);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const all = (await release(from, to)).body.data!.releasePerformance;
    expect(all.topCountries.find((c) => c.country === 'GB')?.name).toBe('United Kingdom');
    expect(all.topCountries.length).toBeGreaterThan(20);

    const india = (await release(from, to, { distributorId: 317 })).body.data!.releasePerformance;
    expect(india.topCountries[0]).toMatchObject({ country: 'IN', name: 'India' });
    expect(sum(india.topCountries.map((c) => c.total))).toBe(india.kpis.totalStreams);
    const taiwan = (await release(from, to, { distributorId: 324 })).body.data!.releasePerformance;
    expect(taiwan.topCountries[0]!.country).toBe('TW');
  });

  it("another account's release is refused with no figures", async () => {
    const refused = await release(FIRST_DAY, LAST_DAY, { token: other.token });
    expect(refused.body.data?.releasePerformance ?? null).toBeNull();
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ type: 'permission_error' });
    // Each account's summary holds its own streams alone.
    const theirs = await summary(FIRST_DAY, LAST_DAY, 50, 50, other.token);
    expect(theirs.storeSeries.map((s) => s.storeId).sort((a, b) => a! - b!)).toEqual([-1300, 301, 302]);
    expect(sum(theirs.topCountries.map((c) => c.total))).toBe(theirs.kpis.totalStreams);
    expect(asMap(theirs.topCountries)).toEqual(
      await rawCountries({ accountId: other.accountId }, FIRST_DAY, LAST_DAY),
    );
  });

  it('REST and the agent tools carry the same series and countries as GraphQL', async () => {
    const [from, to] = ['2026-02-20', '2026-03-15'];
    const typed = await summary(from, to, 2, 5);
    const rest = await request(
      app().url,
      'GET',
      `/v1/analytics/summary?from_date=${from}&to_date=${to}&store_series_limit=2&top_countries_limit=5`,
      { token: owner.token },
    );
    expect(rest.status).toBe(200);
    expect({ storeSeries: rest.body.storeSeries, topCountries: rest.body.topCountries }).toEqual(
      additions(typed),
    );
    expect(rest.body.storeSeries).toHaveLength(3);
    expect(rest.body.topCountries).toHaveLength(5);
    const viaTool = await tool('get_performance_summary', {
      fromDate: from,
      toDate: to,
      storeSeriesLimit: 2,
      topCountriesLimit: 5,
    });
    expect({
      storeSeries: viaTool.result.storeSeries,
      topCountries: viaTool.result.topCountries,
    }).toEqual(additions(typed));

    const typedRelease = (await release(from, to, { series: 3, countries: 4, distributorId: undefined })).body
      .data!.releasePerformance;
    const restRelease = await request(
      app().url,
      'GET',
      `/v1/releases/${releaseId}/analytics?from_date=${from}&to_date=${to}&store_series_limit=3&top_countries_limit=4`,
      { token: owner.token },
    );
    expect(restRelease.status).toBe(200);
    expect({
      storeSeries: restRelease.body.storeSeries,
      topCountries: restRelease.body.topCountries,
    }).toEqual(additions(typedRelease));
    const toolRelease = await tool('get_release_performance', {
      releaseId,
      fromDate: from,
      toDate: to,
      storeSeriesLimit: 3,
      topCountriesLimit: 4,
    });
    expect({
      storeSeries: toolRelease.result.storeSeries,
      topCountries: toolRelease.result.topCountries,
    }).toEqual(additions(typedRelease));

    // Omitted, the limits are 10: six stores of their own and ten countries.
    const defaults = await request(
      app().url,
      'GET',
      `/v1/releases/${releaseId}/analytics?from_date=${from}&to_date=${to}`,
      {
        token: owner.token,
      },
    );
    expect(defaults.body.storeSeries).toHaveLength(6);
    expect(defaults.body.topCountries).toHaveLength(10);
  });

  it('limits out of range are refused naming the parameter on every surface', async () => {
    const rest = await request(app().url, 'GET', '/v1/analytics/summary?top_countries_limit=51', {
      token: owner.token,
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      type: 'invalid_request_error',
      details: [{ path: 'top_countries_limit', message: 'must be between 1 and 50' }],
    });
    const word = await request(
      app().url,
      'GET',
      `/v1/releases/${releaseId}/analytics?store_series_limit=few`,
      {
        token: owner.token,
      },
    );
    expect(word.status).toBe(400);
    expect(word.body.details).toEqual([{ path: 'store_series_limit', message: 'not an integer' }]);
    const viaTool = await tool('get_release_performance', { releaseId, storeSeriesLimit: 0 });
    expect(viaTool.error).toMatchObject({
      data: { type: 'invalid_request_error', details: [{ path: 'storeSeriesLimit' }] },
    });
    const typed = await graphql(
      app().url,
      '{ performanceSummary { topCountries(limit: 0) { country } } }',
      undefined,
      owner.token,
    );
    expect(typed.body.errors?.[0]).toMatchObject({
      message: 'limit: must be between 1 and 50',
      path: ['performanceSummary', 'topCountries'],
    });
  });

  it('days past the last ingestion are read live, series and countries too, as ingestion then writes them', async () => {
    const [from, to] = [addDays(LAST_DAY, -2), addDays(LAST_DAY, 2)];
    const live = await release(from, to);
    const read = live.body.data!.releasePerformance;
    expect(read.source).toBe('LIVE');
    expectSeriesAddUp(read, from, to);
    expect(read.metrics.at(-1)!.streamsCount).toBeGreaterThan(0);
    expect(sum(read.topCountries.map((c) => c.total))).toBe(read.kpis.totalStreams);

    await ingestDay(app().em(), addDays(LAST_DAY, 1));
    await ingestDay(app().em(), addDays(LAST_DAY, 2));
    const cached = (await release(from, to)).body.data!.releasePerformance;
    expect(cached.source).toBe('CACHE');
    expect(cached).toEqual({ ...read, source: 'CACHE' });
  });
});
