/**
 * The dashboard's tests, over HTTP and in chromium: sign in as an account, read a page's boot block,
 * and in the browser the set-up the pages' tests share, and checks that nothing leaves the origin,
 * axe-core's serious and critical findings, and the 360 px layout.
 */
import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import type { Boot } from '../../facades/web/dashboard/shell.ts';
import { screenshot, useChromium } from './browser.ts';
import { browse, CookieJar, csrfOf } from './oauth.ts';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };

/** A dashboard page's boot block, as its script reads it. */
export function bootOf(page: string): Boot {
  const block = /<script type="application\/json" id="dashboard-boot">([^<]*)<\/script>/.exec(page)?.[1];
  if (!block) throw new Error('the page has no boot block');
  return JSON.parse(block) as Boot;
}

/**
 * Signs in over HTTP (the sign-in form, its CSRF cookie), as a browser would, posting `next` as given
 * (a hostile page could post anything); answers the cookie jar and where the sign-in sent it.
 */
export async function signInOverHttp(
  baseUrl: string,
  account: { email: string; password: string },
  next?: string,
): Promise<{ jar: CookieJar; location: string | null }> {
  const jar = new CookieJar();
  const form = await browse(jar, `${baseUrl}/settings/sign-in`);
  const done = await browse(jar, `${baseUrl}/settings/sign-in`, {
    csrf: csrfOf(form.body),
    email: account.email,
    password: account.password,
    ...(next === undefined ? {} : { next }),
  });
  expect(done.status).toBe(303);
  return { jar, location: done.location };
}

/**
 * Signs a browser page in as the account by the sign-in form, starting from the dashboard page `path`:
 * the dashboard sends it to sign in, and the sign-in sends it back.
 */
export async function signInPage(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
  path = '/dashboard/credits',
): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  expect(new URL(page.url()).pathname).toBe('/settings/sign-in');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}${path}`);
}

/**
 * Records every request the context's pages make, WebSocket connections included, whose origin is not
 * `origin`'s (a WebSocket's `ws:`/`wss:` counts as its `http:`/`https:` origin). `check()` fails the test
 * naming them; `count()` says how many requests were seen at all, so a check is never vacuous.
 */
export function watchOrigin(context: BrowserContext, origin: string) {
  const foreign: string[] = [];
  let seen = 0;
  const record = (url: string) => {
    seen++;
    const parsed = new URL(url);
    if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return;
    const asHttp =
      parsed.protocol === 'ws:' ? 'http:' : parsed.protocol === 'wss:' ? 'https:' : parsed.protocol;
    if (`${asHttp}//${parsed.host}` !== origin) foreign.push(url);
  };
  const webSockets: string[] = [];
  const watchPage = (page: Page) =>
    page.on('websocket', (socket) => {
      webSockets.push(socket.url());
      record(socket.url());
    });
  context.on('request', (request) => record(request.url()));
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
  return {
    check: () => expect(foreign, 'requests that left the origin').toEqual([]),
    count: () => seen,
    webSockets: () => [...webSockets],
  };
}

/** Content-Security-Policy refusals the page reports on its console. */
export function cspViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/**
 * Runs axe-core in the page and fails on serious or critical violations. The page's CSP refuses inline
 * and injected script tags, so axe is not added as a `<script>`: Playwright evaluates its source through
 * the DevTools protocol (page.evaluate), which page policies do not govern, and the page's own policy
 * stays on for everything else.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    // The copy just evaluated in the page, not this module's.
    const inPage = (globalThis as unknown as { axe: typeof axe }).axe;
    const result = await inPage.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      targets: nodes.map((node) => JSON.stringify(node.target)),
    }));
  });
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
  expect(serious, 'axe-core: serious and critical violations').toEqual([]);
}

/** At 360 px wide, the page scrolls only up and down: nothing is wider than the viewport. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const size = page.viewportSize();
  expect(size?.width, 'set a 360 px viewport first').toBe(360);
  const widths = await page.evaluate(() => ({
    viewport: document.documentElement.clientWidth,
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }));
  expect(widths.document, 'the document is wider than the viewport').toBeLessThanOrEqual(widths.viewport);
  expect(widths.body, 'the body is wider than the viewport').toBeLessThanOrEqual(widths.viewport);
}

/**
 * What a dashboard page's browser tests share, for one file (call it after `useTestApp`): one chromium,
 * a context at 1280 × 900 whose requests are watched for leaving the app's origin, and its page, not
 * signed in, whose policy refusals are collected. Closed with the browser after the file.
 */
export function useDashboardPage(app: () => { url: string }) {
  const browser = useChromium();
  let opened: { page: Page; origin: ReturnType<typeof watchOrigin>; refused: string[] } | undefined;
  beforeAll(async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const origin = watchOrigin(context, new URL(app().url).origin);
    const page = await context.newPage();
    opened = { page, origin, refused: cspViolations(page) };
  });
  const current = () => {
    if (!opened) throw new Error('the dashboard page is not open: use it inside a test.');
    return opened;
  };
  const page = () => current().page;
  return {
    browser,
    page,
    /** The context's origin watch, for how many requests it saw and the WebSockets among them. */
    origin: () => current().origin,
    /** Nothing the context asked for left the origin, and the page's policy refused nothing. */
    expectStayedOnOrigin: () => {
      current().origin.check();
      expect(current().refused).toEqual([]);
    },
    /** Runs `check` with the page 360 px wide (780 high), then puts it back at 1280 × 900. */
    atPhoneWidth: async (check: () => Promise<void>) => {
      await page().setViewportSize(PHONE);
      try {
        await check();
      } finally {
        await page().setViewportSize(DESKTOP);
      }
    },
  };
}

/**
 * At 360 px, as it stands: no sideways scroll, the table `table` (a selector) as cards (its header row
 * folded away), no serious or critical axe finding; then a screenshot named `name`.
 */
export async function expectPhoneLayout(page: Page, table: string, name: string): Promise<void> {
  await expectNoSidewaysScroll(page);
  expect(
    await page.locator(`${table} thead`).evaluate((head) => head.getBoundingClientRect().height),
  ).toBeLessThanOrEqual(1);
  await expectAccessible(page);
  await screenshot(page, name);
}

/** One place Tab reached: the names a reader might know it by, and its focus outline. */
export interface TabStop {
  /** Its aria-label, its label's first text and whole text, its text, value, id and tag, as present. */
  names: string[];
  outline: string;
}

/** Presses Tab up to `max` times from where the focus is, recording each control it reaches. */
export async function tabStops(page: Page, max: number): Promise<TabStop[]> {
  const stops: TabStop[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null; // past the page's last control
      const style = getComputedStyle(element);
      const label = element.closest('label');
      const names = [
        element.getAttribute('aria-label'),
        label?.firstChild?.textContent,
        label?.textContent,
        element.textContent,
        element.getAttribute('value'),
        element.id,
        element.tagName,
      ]
        .map((name) => name?.trim())
        .filter((name): name is string => Boolean(name));
      return { names, outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    if (!stop) break;
    stops.push(stop);
  }
  return stops;
}

/** Every control in `controls` was reached by Tab, and every stop showed a solid focus outline. */
export function expectKeyboardReach(stops: readonly TabStop[], controls: readonly string[]): void {
  const names = stops.flatMap((stop) => stop.names);
  for (const control of controls) expect(names, control).toContain(control);
  for (const stop of stops) expect(stop.outline, stop.names[0]).toMatch(/^solid [1-9]/);
}
