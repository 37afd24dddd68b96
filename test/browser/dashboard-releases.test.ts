/**
 * The dashboard's Releases page in headless chromium: the account's releases newest first with their
 * covers, statuses and stores; 60 of them paged by 20; the search by UPC, ISRC and title kept in the
 * URL; the empty and no-match states; axe, the keyboard, 360 px; nothing leaves the origin and the
 * page's policy refuses nothing it needs. Screenshots go to test-artefacts/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { screenshot } from '../support/browser.ts';
import {
  expectAccessible,
  expectKeyboardReach,
  expectPhoneLayout,
  signInPage,
  tabStops,
  useDashboardPage,
  watchOrigin,
} from '../support/dashboard.ts';
import {
  type Artist,
  artistAccount,
  assetsOf,
  saveDraft,
  submitRelease,
} from '../support/dashboard-releases.ts';
import { graphql } from '../support/http.ts';

const app = useTestApp();
const { browser, page, origin, expectStayedOnOrigin, atPhoneWidth } = useDashboardPage(app);
let artist: Artist;

/** 59 submitted releases ("Release 01" … "Release 59") and, newest, a draft without cover art. */
const SUBMITTED = 59;
const ISRC = 'USABC2600042';
const titleOf = (n: number) => `Release ${String(n).padStart(2, '0')}`;
let upcOf42: string;

beforeAll(async () => {
  artist = await artistAccount(app().em(), 'releases.page@example.com', 100);
  const assets = await assetsOf(app().url, artist);
  for (let n = 1; n <= SUBMITTED; n++)
    await submitRelease(app().url, artist, assets, {
      title: titleOf(n),
      ...(n === 42 ? { isrc: ISRC } : {}),
    });
  await saveDraft(app().url, artist, 'Sketches');
  const found = await graphql(
    app().url,
    '{ releases(search: "Release 42") { upc } }',
    undefined,
    artist.token,
  );
  upcOf42 = found.body.data.releases[0].upc;
}, 60_000);

const rows = () => page().locator('#releases tbody tr');
const titles = () => page().locator('#releases tbody td[data-label="Release"] a').allTextContents();
const firstTitle = async () => (await titles())[0];

describe('dashboard: Releases', () => {
  it('is the dashboard’s home: newest first, each with cover, title, artist, status, stores and date', async () => {
    await signInPage(page(), app().url, artist, '/dashboard/releases');
    await page().goto(`${app().url}/dashboard`);
    expect(new URL(page().url()).pathname).toBe('/dashboard/releases');
    await expect.poll(() => rows().count()).toBe(20);
    expect(await page().getByRole('heading', { level: 1 }).textContent()).toBe('Releases');
    expect((await titles()).slice(0, 3)).toEqual(['Sketches', 'Release 59', 'Release 58']);

    const draft = rows().nth(0);
    expect(await draft.locator('[role="img"]').getAttribute('aria-label')).toBe('No cover art');
    expect(await draft.locator('td[data-label="Status"]').textContent()).toContain('Draft');
    expect(await draft.locator('td[data-label="Stores"]').textContent()).toBe('No stores yet');
    expect(await draft.locator('td[data-label="Submitted"]').textContent()).toBe('Not submitted');

    const submitted = rows().nth(1);
    expect(await submitted.locator('td[data-label="Release"]').textContent()).toBe('Release 59Lena Marlow');
    expect(await submitted.locator('.chip').textContent()).toBe('○Queued');
    expect(await submitted.locator('td[data-label="Stores"]').textContent()).toBe(
      '0 live · 6 in delivery · 0 failed',
    );
    expect(await submitted.locator('td[data-label="Submitted"] time').getAttribute('datetime')).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    const link = submitted.getByRole('link', { name: 'Release 59' });
    expect(await link.getAttribute('href')).toMatch(/^\/dashboard\/releases\/[0-9a-f-]{36}$/);
    // The cover is a same-origin signed thumbnail the browser loaded (first rows are in view).
    const cover = submitted.locator('img.cover');
    expect(await cover.getAttribute('alt')).toBe('Cover of Release 59');
    expect(new URL((await cover.getAttribute('src'))!).origin).toBe(new URL(app().url).origin);
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);
    await screenshot(page(), 'dashboard-releases');
  });

  it('pages through the 60 releases with Next and Previous', async () => {
    const next = page().getByRole('button', { name: 'Next' });
    const previous = page().getByRole('button', { name: 'Previous' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(firstTitle).toBe('Release 40');
    await next.click();
    await expect.poll(firstTitle).toBe('Release 20');
    expect((await titles()).at(-1)).toBe('Release 01');
    await expect.poll(() => next.isDisabled()).toBe(true);
    expect(await page().locator('nav.pager').textContent()).toContain('Page 3');
    await previous.click();
    await expect.poll(firstTitle).toBe('Release 40');
    await previous.click();
    await expect.poll(firstTitle).toBe('Sketches');
    expect(await rows().count()).toBe(20);
  });

  it('searches by UPC from the keyboard, with the search in the URL that a reload keeps', async () => {
    await page().getByLabel('Search releases').focus();
    await page().keyboard.type(upcOf42);
    await page().keyboard.press('Enter');
    await expect.poll(titles).toEqual(['Release 42']);
    expect(new URL(page().url()).searchParams.get('search')).toBe(upcOf42);
    await page().reload();
    await expect.poll(titles).toEqual(['Release 42']);
    expect(await page().getByLabel('Search releases').inputValue()).toBe(upcOf42);
    expect(await page().locator('nav.pager').isHidden()).toBe(false);
  });

  it('searches by ISRC (case, spaces and hyphens aside) and by a part of the title; Back returns', async () => {
    const box = page().getByLabel('Search releases');
    await box.fill('us-abc-26-00042');
    await box.press('Enter');
    await expect.poll(titles).toEqual(['Release 42']);
    await box.fill('release 1');
    await box.press('Enter');
    await expect
      .poll(titles)
      .toEqual([
        'Release 19',
        'Release 18',
        'Release 17',
        'Release 16',
        'Release 15',
        'Release 14',
        'Release 13',
        'Release 12',
        'Release 11',
        'Release 10',
      ]);
    await page().goBack();
    await expect.poll(titles).toEqual(['Release 42']);
    expect(await box.inputValue()).toBe('us-abc-26-00042');
  });

  it('says when nothing matches, and "Show all releases" clears the search', async () => {
    const box = page().getByLabel('Search releases');
    await box.fill('no such title');
    await box.press('Enter');
    await expect
      .poll(() => page().locator('#releases-empty').textContent())
      .toContain('No release matches “no such title”.');
    expect(await page().locator('#releases').isHidden()).toBe(true);
    await page().getByRole('link', { name: 'Show all releases' }).click();
    await expect.poll(() => rows().count()).toBe(20);
    expect(new URL(page().url()).search).toBe('');
    expect(await box.inputValue()).toBe('');
  });

  it('has no serious or critical accessibility violation; Tab reaches the search, a release and the pager', async () => {
    await expectAccessible(page());
    await page().emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page());
    await page().emulateMedia({ colorScheme: 'light' });
    await page().reload();
    await expect.poll(() => rows().count()).toBe(20);
    expectKeyboardReach(await tabStops(page(), 40), [
      'Releases',
      'release-search',
      'Search',
      'Sketches',
      'Release 59',
      'Next',
    ]);
  });

  it('fits 360 px without sideways scrolling, each release a card', async () => {
    await atPhoneWidth(async () => {
      await page().reload();
      await expect.poll(() => rows().count()).toBe(20);
      await expectPhoneLayout(page(), '#releases', 'dashboard-releases-360');
    });
  });

  it('says so when an account has no release yet', async () => {
    const newcomer = await artistAccount(app().em(), 'no.releases@example.com');
    const other = await browser().newContext();
    const otherOrigin = watchOrigin(other, new URL(app().url).origin);
    const tab = await other.newPage();
    await signInPage(tab, app().url, newcomer, '/dashboard/releases');
    await expect.poll(() => tab.locator('#releases-empty').textContent()).toContain('No releases yet.');
    expect(await tab.locator('#releases').isHidden()).toBe(true);
    expect(await tab.locator('nav.pager').isHidden()).toBe(true);
    await expectAccessible(tab);
    otherOrigin.check();
    await other.close();
  });

  it('made no request to another origin and met no policy refusal', async () => {
    expectStayedOnOrigin();
    expect(origin().count()).toBeGreaterThan(20);
  });
});
