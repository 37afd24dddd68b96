/**
 * The artist's dashboard in headless Chromium (playwright-core, /usr/bin/chromium) against the real
 * server with 60 releases (one of them live in 25 stores):
 * (a) each page's first load on the wire, cold cache: HTML, scripts, styles, API answers, images;
 * (b) navigation start to the first release row of the Releases page, median of 10 loads;
 * (c) a store status change committed by a delivery step in this process to the Release page showing
 *     it (the row's `data-updated-at`, the page's Date.now()), p50 and p95 over 20 changes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sandboxOnly } from '../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import { advanceRelease } from '../src/domains/delivery/advance-release.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { launchChromium } from '../test/support/browser.ts';
import { artistAccount, assetsOf, submitRelease } from '../test/support/dashboard-releases.ts';
import { TEST_PASSWORD } from '../test/support/oauth.ts';
import { uploadCovers } from './support/album-covers.ts';
import { firstLoadTransfer, observeFirst, timeToFirst } from './support/page-transfer.ts';
import { benchApp } from './support/servers.ts';

const RELEASES = 60;
/** Different covers, as many as a page has rows: every thumbnail on a page is its own image. */
const COVERS = 20;
const LOADS = 10;
const CHANGES = 20;
const WIDE_STORES = [301, 302, 303, 304, 305, 306, ...Array.from({ length: 19 }, (_, i) => 308 + i)];
const TARGETS = { transferKb: 150, firstListMs: 500, liveP50Ms: 250 };

/** The server's own steps wait an hour: every status change of the bench is the bench's. */
const STEP_SECONDS = 3600;
const bench = await benchApp('tributary_bench_dashboard', {
  env: { SANDBOX_STEP_SECONDS: String(STEP_SECONDS) },
});
const adapters = sandboxOnly({ stepSeconds: STEP_SECONDS });
const clock = new ManualClock(new Date(Date.now() + (STEP_SECONDS + 1) * 1000));
/** One delivery step of a release, committed when this returns. */
const step = async (releaseId: string) => {
  const result = await advanceRelease(bench.orm.em.fork(), releaseId, clock, adapters);
  clock.advance(STEP_SECONDS);
  return result;
};

const median = (values: number[]) => percentile(values, 50);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function signedInState(browser: Browser, base: string, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/releases`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/dashboard/releases`);
  await page.locator('#releases tbody tr').first().waitFor();
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Opens a release's page and waits until its subscription is sent and its first re-read is done. */
async function openLive(page: Page, base: string, releaseId: string): Promise<void> {
  const subscribed = new Promise<void>((resolve) =>
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (String(payload).includes('"subscribe"')) resolve();
      }),
    ),
  );
  const reread = page.waitForResponse(
    (r) => r.url().includes('/graphql?documentId=') && r.url().includes('releaseId'),
  );
  await page.goto(`${base}/dashboard/releases/${releaseId}`);
  await Promise.all([subscribed, reread]);
  await page.waitForTimeout(300); // the server registers the subscription
}

let browser: Browser | undefined;
try {
  const base = bench.app.url;
  const artist = await artistAccount(bench.orm.em.fork(), 'dashboard.bench@example.com', 1000);
  const assets = await assetsOf(base, artist);
  const covers = await uploadCovers(base, artist.token, COVERS);
  const withCover = (n: number) => ({ ...assets, coverUrl: covers[n % COVERS]! });
  const ids: string[] = [];
  for (let n = 1; n < RELEASES; n++)
    ids.push(await submitRelease(base, artist, withCover(n), { title: `Release ${n}` }));
  const wide = await submitRelease(base, artist, withCover(0), {
    title: 'Everywhere',
    storeIds: WIDE_STORES,
  });
  for (let i = 0; i < 3; i++) await step(wide);
  // Some releases further along, as a real list has them.
  for (const id of ids.filter((_, i) => i % 4 === 0)) for (let i = 0; i < 3; i++) await step(id);

  browser = await launchChromium();
  const storageState = await signedInState(browser, base, artist.email);
  const fresh = () =>
    (browser as Browser).newContext({ storageState, viewport: { width: 1280, height: 900 } });

  // (a) First-load transfer, cold cache, per page.
  const pages: [string, string, (page: Page) => Promise<unknown>][] = [
    ['Releases', '/dashboard/releases', (p) => p.locator('#releases tbody tr').first().waitFor()],
    [
      'Release (25 stores)',
      `/dashboard/releases/${wide}`,
      (p) => p.locator('#stores tbody tr').first().waitFor(),
    ],
    ['Credits', '/dashboard/credits', (p) => p.locator('#page:not([aria-busy])').waitFor()],
    ['Streams', '/dashboard/streams', (p) => p.locator('#page:not([aria-busy])').waitFor()],
  ];
  const transfers: { page: string; kb: Record<string, number>; total: number; requests: number }[] = [];
  for (const [name, path, ready] of pages) {
    const context = await fresh();
    const transfer = await firstLoadTransfer(context, `${base}${path}`, ready);
    await context.close();
    transfers.push({
      page: name,
      kb: Object.fromEntries(Object.entries(transfer.bytes).map(([k, v]) => [k, v / 1024])),
      total: transfer.total / 1024,
      requests: transfer.requests,
    });
  }

  // (b) Navigation start to the first release row: cold (a new context each load) and warm (reloads).
  const cold: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context: BrowserContext = await fresh();
    await observeFirst(context, '#releases tbody tr');
    cold.push(await timeToFirst(await context.newPage(), `${base}/dashboard/releases`, '#releases tbody tr'));
    await context.close();
  }
  const warmContext = await fresh();
  await observeFirst(warmContext, '#releases tbody tr');
  const warmPage = await warmContext.newPage();
  await timeToFirst(warmPage, `${base}/dashboard/releases`, '#releases tbody tr');
  const warm: number[] = [];
  for (let i = 0; i < LOADS; i++)
    warm.push(await timeToFirst(warmPage, `${base}/dashboard/releases`, '#releases tbody tr'));
  await warmContext.close();

  // (c) Committed status change → the page shows it.
  const latencies: number[] = [];
  const context = await fresh();
  const page = await context.newPage();
  for (const id of ids.filter((_, i) => i % 4 !== 0)) {
    if (latencies.length >= CHANGES) break;
    await openLive(page, base, id);
    for (let i = 0; i < 3 && latencies.length < CHANGES; i++) {
      const before = await page.locator('#stores').getAttribute('data-updated-at');
      const moved = await step(id);
      const committed = Date.now();
      if (moved.moved === 0) throw new Error(`release ${id} did not move`);
      const shown = await page.waitForFunction(
        (previous) => {
          const at = document.getElementById('stores')?.dataset.updatedAt;
          return at && at !== previous ? Number(at) : null;
        },
        before,
        { timeout: 10_000 },
      );
      latencies.push(Number(await shown.jsonValue()) - committed);
    }
  }
  await context.close();

  const rows: [string, string, string, boolean][] = [
    ...transfers.map((t): [string, string, string, boolean] => [
      `(a) first load, ${t.page}`,
      `${t.total.toFixed(1)} KB (${Object.entries(t.kb)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')}; ${t.requests} requests)`,
      `≤ ${TARGETS.transferKb} KB`,
      t.total <= TARGETS.transferKb,
    ]),
    [
      `(b) first release row, cold, median of ${LOADS}`,
      `${median(cold).toFixed(0)} ms (min ${Math.min(...cold).toFixed(0)}, max ${Math.max(...cold).toFixed(0)})`,
      `≤ ${TARGETS.firstListMs} ms`,
      median(cold) <= TARGETS.firstListMs,
    ],
    [
      `(b) first release row, warm, median of ${LOADS}`,
      `${median(warm).toFixed(0)} ms (min ${Math.min(...warm).toFixed(0)}, max ${Math.max(...warm).toFixed(0)})`,
      `≤ ${TARGETS.firstListMs} ms`,
      median(warm) <= TARGETS.firstListMs,
    ],
    [
      `(c) live status change, p50 of ${latencies.length}`,
      `${median(latencies).toFixed(0)} ms (min ${Math.min(...latencies).toFixed(0)})`,
      `≤ ${TARGETS.liveP50Ms} ms`,
      median(latencies) <= TARGETS.liveP50Ms,
    ],
    [
      `(c) live status change, p95 of ${latencies.length}`,
      `${percentile(latencies, 95).toFixed(0)} ms (max ${Math.max(...latencies).toFixed(0)})`,
      '—',
      true,
    ],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => String(r[i]).length), 8));
  console.log(
    `${'measure'.padEnd(widths[0]!)}  ${'figure'.padEnd(widths[1]!)}  ${'target'.padEnd(widths[2]!)}  met`,
  );
  for (const [what, figure, target, met] of rows)
    console.log(
      `${what.padEnd(widths[0]!)}  ${figure.padEnd(widths[1]!)}  ${target.padEnd(widths[2]!)}  ${met ? 'yes' : 'NO'}`,
    );
  console.log(
    `\n${RELEASES} releases with ${COVERS} different covers (one in ${WIDE_STORES.length} stores, live); ` +
      'KB = 1024 bytes received, compressed, headers included; images load lazily (the rows in view only).',
  );
} finally {
  await browser?.close();
  await bench.close();
}
