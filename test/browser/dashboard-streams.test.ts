/**
 * The dashboard's Streams page in headless chromium, on 70 days of the sandbox's streams for two
 * releases on eight stores: the tables (and so the chart's data) hold what the analytics API answers
 * for the same window, for the account and for one release; the presets and the dates change the
 * window and the URL; the release picker and `?release=`; another account's release is not found; axe
 * in light and dark, the keyboard, 360 px; nothing leaves the origin and the policy refuses nothing.
 * Screenshots go to test-artefacts/.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../src/domains/analytics/days.ts';
import { ingestMissedDays } from '../../src/domains/analytics/ingest.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { liveRelease } from '../analytics/support.ts';
import { useTestApp } from '../support/app.ts';
import { screenshot } from '../support/browser.ts';
import {
  expectAccessible,
  expectKeyboardReach,
  expectNoSidewaysScroll,
  signInPage,
  tabStops,
  useDashboardPage,
} from '../support/dashboard.ts';
import { graphql } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';

const app = useTestApp();
const { page, origin, expectStayedOnOrigin, atPhoneWidth } = useDashboardPage(app);
let account: { id: string; email: string; password: string };
let token: string;
let nightFerry: string;
let foreign: string;

const TODAY = dayOf(new Date());
/** Where the presets end: the last day the stores have reported whole. */
const LAST = addDays(TODAY, -1);
const STREAMS = '/dashboard/streams';

/** The figures the page shows, as the API answers them (the test's own documents, not the page's). */
interface Answer {
  fromDate: string;
  toDate: string;
  kpis: { totalStreams: number; periodChangePct: number | null };
  metrics: { eventDate: string; streamsCount: number }[];
  storeSeries: { storeName: string; days: { streamsCount: number }[] }[];
  stores: { name: string; total: number }[];
  topCountries: { name: string; total: number }[];
}

const FIGURES = `kpis { totalStreams periodChangePct } metrics { eventDate streamsCount }
  storeSeries(limit: 5) { storeName days { streamsCount } } topCountries(limit: 10) { name total } fromDate toDate`;

async function accountAnswer(from: string, to: string): Promise<Answer> {
  const { body } = await graphql(
    app().url,
    `query($from: String, $to: String) { performanceSummary(fromDate: $from, toDate: $to) { ${FIGURES} topStores { name total } } }`,
    { from, to },
    token,
  );
  const { topStores, ...rest } = body.data.performanceSummary;
  return { ...rest, stores: topStores };
}

async function releaseAnswer(id: string, from: string, to: string): Promise<Answer> {
  const { body } = await graphql(
    app().url,
    `query($id: ID!, $from: String, $to: String) { releasePerformance(releaseId: $id, fromDate: $from, toDate: $to) { ${FIGURES} distributors { name total } } }`,
    { id, from, to },
    token,
  );
  const { distributors, ...rest } = body.data.releasePerformance;
  return { ...rest, stores: distributors.slice(0, 10) };
}

const count = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** A table's header cells and its body's rows of cell texts, as a reader (or a screen reader) gets them. */
const tableOf = (id: string) =>
  page()
    .locator(`#${id}`)
    .evaluate((table) => ({
      columns: [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? ''),
      rows: [...table.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
      ),
    }));

const shownWindow = async () => ({
  from: await page().locator('#streams-from').inputValue(),
  to: await page().locator('#streams-to').inputValue(),
});

/** Waits for the figures of this window, then checks every table against the API's answer. */
async function expectFiguresOf(answer: Answer): Promise<void> {
  await expect.poll(shownWindow).toEqual({ from: answer.fromDate, to: answer.toDate });
  await expect.poll(() => page().locator('#series-table tbody tr').count()).toBe(answer.metrics.length);
  await expect.poll(() => page().locator('#streams-results').getAttribute('aria-busy')).toBeNull();

  expect(count(await page().locator('#kpi-total').textContent())).toBe(answer.kpis.totalStreams);
  expect(answer.kpis.totalStreams).toBeGreaterThan(0);

  // The chart: a series per store of storeSeries, named in the legend in text.
  const names = answer.storeSeries.map((series) => series.storeName);
  expect(await page().locator('#series-chart').getAttribute('data-series')).toBe(String(names.length));
  expect(await page().locator('#series-legend .legend-name').allTextContents()).toEqual(names);
  // Its numbers, per day × store, and every store together.
  const series = await tableOf('series-table');
  expect(series.columns).toEqual(['Day', ...names, 'All stores']);
  expect(series.rows.map((row) => row.slice(1).map(count))).toEqual(
    answer.metrics.map((day, index) => [
      ...answer.storeSeries.map((store) => store.days[index]?.streamsCount),
      day.streamsCount,
    ]),
  );

  const stores = await tableOf('top-stores');
  expect(stores.rows.map(([name, streams]) => ({ name, total: count(streams ?? '') }))).toEqual(
    answer.stores,
  );
  const countries = await tableOf('top-countries');
  expect(countries.rows.map(([name, streams]) => ({ name, total: count(streams ?? '') }))).toEqual(
    answer.topCountries,
  );
}

beforeAll(async () => {
  account = await accountWithPassword(app().em(), 'streams.page@example.com');
  const other = await accountWithPassword(app().em(), 'streams.other@example.com');
  const liveAt = new Date(`${addDays(TODAY, -70)}T08:00:00Z`);
  // Ids chosen for popular releases (the sandbox's figures are seeded by them): every store of theirs
  // still has streams on most days of the window, 40 to 70 days after release day.
  await liveRelease(app().em(), account.id, {
    id: '00000000-0000-4000-8000-000000000003',
    storeIds: [301, 302, 306],
    liveAt,
    title: 'Harbour Lines',
  });
  ({ releaseId: nightFerry } = await liveRelease(app().em(), account.id, {
    id: '00000000-0000-4000-8000-000000000004',
    storeIds: [304, 305, 309, 311],
    liveAt,
    title: 'Night Ferry',
  }));
  ({ releaseId: foreign } = await liveRelease(app().em(), other.id, { storeIds: [301], liveAt }));
  await ingestMissedDays(app().em(), systemClock);
}, 60_000);

describe('dashboard: Streams', () => {
  it('shows the account’s last 30 days: the figures are the API’s, the chart plots each store', async () => {
    await signInPage(page(), app().url, account, STREAMS);
    token = await page().evaluate(
      () =>
        (JSON.parse(document.getElementById('dashboard-boot')?.textContent ?? '{}') as { token: string })
          .token,
    );
    const answer = await accountAnswer(addDays(LAST, -29), LAST);
    // Eight stores: the five with the most streams and the others together.
    expect(answer.storeSeries.map((series) => series.storeName).at(-1)).toBe('Other stores');
    expect(answer.storeSeries).toHaveLength(6);
    await expectFiguresOf(answer);
    expect(answer.kpis.periodChangePct).not.toBeNull();
    expect(await page().locator('#kpi-change').textContent()).toMatch(/^[+\u2212]?[\d.,]+%$/);
    expect(
      await page()
        .locator('#kpi-change')
        .evaluate((dd) => dd.previousElementSibling?.textContent),
    ).toBe('Change against the 30 days before');
    expect(await page().locator('#kpi-freshness').textContent()).toMatch(/^Figures through /);
    expect(await page().locator('#streams-scope').textContent()).toMatch(
      /^All your releases, .* \(30 days\)\.$/,
    );
    expect(await page().getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page().getByRole('link', { name: 'Streams' }).getAttribute('aria-current')).toBe('page');
    expect(new URL(page().url()).search).toBe('');
    await screenshot(page(), 'dashboard-streams');
  });

  it('changes the window with a preset and with the dates; the URL keeps it for a reload and Back', async () => {
    const thirty = count(await page().locator('#kpi-total').textContent());
    await page().getByRole('button', { name: 'Last 7 days' }).click();
    const week = await accountAnswer(addDays(LAST, -6), LAST);
    await expectFiguresOf(week);
    expect(week.kpis.totalStreams).toBeLessThan(thirty);
    expect(new URL(page().url()).search).toBe(`?from=${addDays(LAST, -6)}&to=${LAST}`);
    expect(await page().locator('#notice').textContent()).toMatch(
      /^Showing All your releases, .* \(7 days\)\.$/,
    );

    await page().locator('#streams-from').fill(addDays(TODAY, -60));
    await page().locator('#streams-to').fill(addDays(TODAY, -46));
    await page().getByRole('button', { name: 'Show' }).click();
    const earlier = await accountAnswer(addDays(TODAY, -60), addDays(TODAY, -46));
    await expectFiguresOf(earlier);
    expect(await page().getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe(
      'false',
    );

    await page().reload();
    await expectFiguresOf(earlier);
    await page().goBack();
    await expectFiguresOf(week);
  });

  it('shows the API’s validation error with its field', async () => {
    await page().locator('#streams-from').fill(addDays(TODAY, -10));
    await page().locator('#streams-to').fill(addDays(TODAY, -20));
    await page().getByRole('button', { name: 'Show' }).click();
    await expect
      .poll(() => page().locator('#alerts').textContent())
      .toContain(`toDate: ${addDays(TODAY, -20)} is before fromDate`);
    expect(await page().locator('#streams-to').getAttribute('aria-invalid')).toBe('true');
    expect(await page().locator('#streams-from').getAttribute('aria-invalid')).toBeNull();
    expect(await page().locator('#series-table').count()).toBe(0);
    // A good window clears the error and the mark.
    await page().getByRole('button', { name: 'Last 30 days' }).click();
    await expectFiguresOf(await accountAnswer(addDays(LAST, -29), LAST));
    expect(await page().locator('#alerts').textContent()).toBe('');
    expect(await page().locator('#streams-to').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows one release picked from the list, and by ?release= in the URL', async () => {
    await page().getByLabel('Release').selectOption({ label: 'Night Ferry · Ada Artist' });
    await page().getByRole('button', { name: 'Show' }).click();
    await page().waitForURL(`**/dashboard/streams?release=${nightFerry}&from=*`);
    const answer = await releaseAnswer(nightFerry, addDays(LAST, -29), LAST);
    await expectFiguresOf(answer);
    expect(await page().locator('#streams-scope').textContent()).toMatch(/^Night Ferry · Ada Artist, /);
    // Its four stores and the video-music platform: five series, no "Other stores".
    expect(answer.storeSeries).toHaveLength(5);

    await page().goto(`${app().url}${STREAMS}?release=${nightFerry}&from=${addDays(LAST, -89)}&to=${LAST}`);
    await expectFiguresOf(await releaseAnswer(nightFerry, addDays(LAST, -89), LAST));
    expect(await page().getByLabel('Release').inputValue()).toBe(nightFerry);
    expect(await page().getByRole('button', { name: 'Last 90 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await screenshot(page(), 'dashboard-streams-release');
  });

  it('says "not found" for another account’s release, an unknown one and an id that is none', async () => {
    // The analytics read answers another account's release 403 (its contract); the page says not found.
    const refusal = await graphql(
      app().url,
      'query($id: ID!) { releasePerformance(releaseId: $id) { releaseId } }',
      { id: foreign },
      token,
    );
    expect(refusal.body.errors?.[0]?.extensions.code).toBe('release_not_owned');
    for (const id of [foreign, randomUUID(), 'not-an-id']) {
      await page().goto(`${app().url}${STREAMS}?release=${id}`);
      await expect
        .poll(() => page().locator('#not-found').textContent(), { message: id })
        .toBe('This release does not exist, or it is not yours.');
      expect(await page().getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
      expect(await page().title()).toBe('Not found · Tributary');
      expect(await page().locator('#streams-filters').count()).toBe(0);
    }
  });

  it('has no serious or critical accessibility finding in light and dark, and every control is reached by Tab', async () => {
    await page().goto(`${app().url}${STREAMS}`);
    await expect.poll(() => page().locator('#series-chart').getAttribute('data-series')).toBe('6');
    await expectAccessible(page());
    const swatch = () =>
      page()
        .locator('#series-legend .swatch')
        .first()
        .evaluate((element) => getComputedStyle(element).color);
    const light = await swatch();
    await page().emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page().locator('#series-chart').getAttribute('data-scheme')).toBe('dark');
    expect(await swatch()).not.toBe(light);
    await expectAccessible(page());
    await screenshot(page(), 'dashboard-streams-dark');
    await page().emulateMedia({ colorScheme: 'light' });

    expectKeyboardReach(await tabStops(page(), 30), [
      'Streams',
      'Release',
      'From',
      'To',
      'Show',
      'Last 7 days',
      'Last year',
      'The figures per day',
    ]);
  });

  it('fits 360 px without sideways scrolling: the chart takes the width, the table opens as cards', async () => {
    await atPhoneWidth(async () => {
      await page().reload();
      await expect.poll(() => page().locator('#series-chart').getAttribute('data-series')).toBe('6');
      const widths = await page()
        .locator('#series-chart')
        .evaluate((chart) => ({
          chart: chart.getBoundingClientRect().width,
          canvas: chart.querySelector('canvas')?.getBoundingClientRect().width ?? 0,
        }));
      expect(widths.canvas).toBeGreaterThan(240);
      expect(widths.canvas).toBeLessThanOrEqual(widths.chart);
      await expectNoSidewaysScroll(page());
      await screenshot(page(), 'dashboard-streams-360');
      await page().getByText('The figures per day').click();
      expect(await page().locator('#series-table').isVisible()).toBe(true);
      await expectNoSidewaysScroll(page());
      await expectAccessible(page());
    });
    // Back to desktop: the chart follows its container.
    await expect
      .poll(() =>
        page()
          .locator('#series-chart canvas')
          .first()
          .evaluate((c) => c.getBoundingClientRect().width),
      )
      .toBeGreaterThan(600);
  });

  it('made no request to another origin and met no policy refusal', async () => {
    expectStayedOnOrigin();
    expect(origin().count()).toBeGreaterThan(10);
  });
});
