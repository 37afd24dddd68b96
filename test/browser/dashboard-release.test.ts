/**
 * The dashboard's Release page in headless chromium, on an app whose sandbox distributor steps every
 * second: the table follows a submitted release store by store to Live (and a rejection with its
 * reason) without a reload; adding a store; a takedown behind its confirmation; another account's
 * release is "Not found"; axe, the keyboard, 360 px; nothing leaves the origin and the page's policy
 * refuses nothing it needs. Screenshots go to test-artefacts/.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  instructSandbox,
  setSandboxOffline,
} from '../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
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
  countNavigations,
  saveDraft,
  submitRelease,
} from '../support/dashboard-releases.ts';
import type { Assets } from '../support/releases.ts';

const app = useTestApp({ SANDBOX_STEP_SECONDS: '1' }, { background: true });
const { browser, page, origin, expectStayedOnOrigin, atPhoneWidth } = useDashboardPage(app);
let artist: Artist;
let assets: Assets;
let releaseId: string;

beforeAll(async () => {
  artist = await artistAccount(app().em(), 'release.page@example.com', 20);
  assets = await assetsOf(app().url, artist);
  await signInPage(page(), app().url, artist, '/dashboard/releases');
}, 60_000);

const row = (store: string) =>
  page().locator('#stores tbody tr', { has: page().getByRole('rowheader', { name: store }) });
const statusOf = (store: string) => row(store).locator('td[data-label="Status"]').textContent();

/** Each store's status texts as the page showed them, in order, recorded in the page as they change. */
async function recordStatuses(): Promise<() => Promise<Record<string, string[]>>> {
  await page().evaluate(() => {
    const seen: Record<string, string[]> = {};
    const read = () => {
      for (const tr of document.querySelectorAll('#stores tbody tr')) {
        const store = tr.querySelector('th')?.textContent ?? '';
        const status = tr.querySelector('td[data-label="Status"]')?.textContent ?? '';
        const history = seen[store] ?? [];
        if (history.at(-1) !== status) seen[store] = [...history, status];
      }
    };
    read();
    new MutationObserver(read).observe(document.getElementById('stores')!, {
      subtree: true,
      childList: true,
    });
    (globalThis as unknown as { seen: typeof seen }).seen = seen;
  });
  return () => page().evaluate(() => (globalThis as unknown as { seen: Record<string, string[]> }).seen);
}

describe('dashboard: a release, live', () => {
  it('follows a submitted release store by store to Live, and a rejection with its reason, without a reload', async () => {
    // Held at Queued while the page opens, then let go: every step is seen live.
    await setSandboxOffline(app().em(), true, 'held for the test');
    try {
      releaseId = await submitRelease(app().url, artist, assets, {
        title: 'Harbour Lights',
        storeIds: [301, 302, 306],
      });
      await instructSandbox(app().em(), releaseId, 306, {
        action: 'reject',
        reason: 'The cover art is blurry.',
      });
      await page().goto(`${app().url}/dashboard/releases/${releaseId}`);
      await expect.poll(() => statusOf('Spotify')).toBe('Queued');
    } finally {
      await setSandboxOffline(app().em(), false);
    }
    const navigations = countNavigations(page());
    const history = await recordStatuses();
    expect(await page().getByRole('heading', { level: 1 }).textContent()).toBe('Harbour Lights');
    expect(await page().title()).toBe('Harbour Lights · Tributary');
    await expect.poll(() => statusOf('Apple Music'), { timeout: 15_000 }).toBe('Live');
    await expect.poll(() => statusOf('Spotify')).toBe('Live');

    expect(await history()).toEqual({
      Spotify: ['Queued', 'In inspection', 'Delivered to DSP', 'Live'],
      'Apple Music': ['Queued', 'In inspection', 'Delivered to DSP', 'Live'],
      Deezer: ['Queued', 'Rejected'],
    });
    expect(navigations()).toBe(0);
    expect(await row('Deezer').locator('td[data-label="Details"]').textContent()).toBe(
      'Reason: The cover art is blurry.',
    );
    const open = row('Spotify').getByRole('link', { name: /^Open in store/ });
    expect(await open.getAttribute('href')).toBe(`https://spotify.sandbox.example/release/${releaseId}`);
    expect(await open.getAttribute('target')).toBe('_blank');
    expect(await page().locator('#release-status').textContent()).toBe('●Live');
    await expect
      .poll(() => page().locator('#store-updates').textContent())
      .toMatch(/^Spotify, Apple Music: Live\. \(/);
    expect(await page().locator('#store-updates').getAttribute('aria-live')).toBe('polite');
    // The facts and the tracks the API holds.
    const facts = await page().locator('dl.facts').textContent();
    expect(facts).toMatch(/UPC\d{12,13}/);
    expect(facts).toContain('LabelHarbor Light Records');
    expect(await page().locator('#tracks tbody td[data-label="ISRC"]').textContent()).toMatch(
      /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/,
    );
    expect(await page().getByRole('link', { name: 'Streams of this release' }).getAttribute('href')).toBe(
      `/dashboard/streams?release=${releaseId}`,
    );
    await screenshot(page(), 'dashboard-release-live');
  });

  it('after a dropped connection, resumes from the last event it saw and misses nothing', async () => {
    // A context of its own: the page below stays the only one of the main context.
    const own = await browser().newContext();
    const ownOrigin = watchOrigin(own, new URL(app().url).origin);
    const tab = await own.newPage();
    await signInPage(tab, app().url, artist, '/dashboard/releases');
    const subscribes: string[] = [];
    tab.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (String(payload).includes('"subscribe"')) subscribes.push(String(payload));
      }),
    );
    // The page's sockets, kept where the test can drop one (evaluated outside the page's policy).
    await tab.addInitScript(() => {
      const sockets: WebSocket[] = [];
      (globalThis as unknown as { sockets: WebSocket[] }).sockets = sockets;
      globalThis.WebSocket = class extends WebSocket {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          sockets.push(this);
        }
      };
    });
    await setSandboxOffline(app().em(), true, 'held for the test');
    let id: string;
    try {
      id = await submitRelease(app().url, artist, assets, { title: 'Paper Boats', storeIds: [301] });
      await tab.goto(`${app().url}/dashboard/releases/${id}`);
      await expect.poll(() => subscribes.length).toBe(1);
    } finally {
      await setSandboxOffline(app().em(), false);
    }
    const status = () => tab.locator('#stores tbody td[data-label="Status"]').textContent();
    await expect.poll(status, { timeout: 10_000 }).toBe('In inspection');
    // The connection drops; the next steps happen while it is down.
    await tab.evaluate(() =>
      (globalThis as unknown as { sockets: WebSocket[] }).sockets[0]!.close(4499, 'dropped'),
    );
    await expect.poll(status, { timeout: 15_000 }).toBe('Live');
    expect(subscribes).toHaveLength(2);
    expect(JSON.parse(subscribes[0]!).payload.variables).toEqual({ releaseId: id, after: null });
    expect(JSON.parse(subscribes[1]!).payload.variables).toEqual({
      releaseId: id,
      after: expect.stringMatching(/^\d+$/),
    });
    await expect.poll(() => tab.locator('#store-updates').textContent()).toMatch(/^Spotify: Live\. \(/);
    ownOrigin.check();
    await own.close();
  });

  it('adds a store after a confirmation, and the table shows it queued, then on its way', async () => {
    await page().getByRole('checkbox', { name: 'Tidal' }).check();
    await page().getByRole('button', { name: 'Add stores…' }).click();
    const dialog = page().getByRole('dialog', { name: 'Add one store?' });
    expect(await dialog.textContent()).toContain('“Harbour Lights” will be sent to Tidal.');
    await expectAccessible(page());
    await dialog.getByRole('button', { name: 'Add the store' }).click();
    await expect.poll(() => page().locator('#notice').textContent()).toBe('Queued for Tidal.');
    await expect.poll(() => statusOf('Tidal')).toBe('Queued');
    // A store added after distribution reports on its own when it is delivered.
    await expect.poll(() => statusOf('Tidal'), { timeout: 10_000 }).toBe('Delivered to DSP');
    expect(await page().getByRole('checkbox', { name: 'Tidal' }).count()).toBe(0);
    expect(await page().getByRole('checkbox', { name: 'Deezer (again)' }).count()).toBe(1);
  });

  it('takes down from a chosen store only after the confirmation says what it does', async () => {
    await page().getByRole('radio', { name: 'Only the stores I choose' }).check();
    await page().locator('#take-down').getByRole('checkbox', { name: 'Spotify' }).check();
    await page().getByRole('button', { name: 'Take down…' }).click();
    const dialog = page().getByRole('dialog', { name: 'Take “Harbour Lights” down from Spotify?' });
    expect(await dialog.textContent()).toContain(
      'Spotify will remove the release: it stops streaming and selling there',
    );
    expect(await dialog.textContent()).toContain('This cannot be undone.');
    // Escape (or Cancel) changes nothing.
    await page().keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await statusOf('Spotify')).toBe('Live');
    await page().getByRole('button', { name: 'Take down…' }).click();
    await page().getByRole('button', { name: 'Take down from this store' }).click();
    await expect.poll(() => page().locator('#notice').textContent()).toBe('Takedown requested from Spotify.');
    await expect.poll(() => statusOf('Spotify')).toMatch(/^Takedown (requested|delivered)$/);
    await expect.poll(() => statusOf('Spotify'), { timeout: 10_000 }).toBe('Takedown delivered');
    expect(await statusOf('Apple Music')).toBe('Live');
    await screenshot(page(), 'dashboard-release-taken-down');
  });
});

describe('dashboard: a release, around', () => {
  it('has no serious or critical accessibility violation; Tab reaches every control', async () => {
    await expectAccessible(page());
    await page().emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page());
    await page().emulateMedia({ colorScheme: 'light' });
    await page().locator('a.skip').focus();
    expectKeyboardReach(await tabStops(page(), 80), [
      'Streams of this release',
      'Open in store Apple Music (opens a new tab)',
      'Deezer (again)',
      'Add stores…',
      // The radio group is one stop: the one chosen for the takedown above.
      'Only the stores I choose',
      'Take down…',
    ]);
  });

  it('fits 360 px without sideways scrolling, the stores as cards', async () => {
    await atPhoneWidth(() => expectPhoneLayout(page(), '#stores', 'dashboard-release-360'));
  });

  it('shows "Not found" for another account’s release and for an unknown id', async () => {
    const stranger = await artistAccount(app().em(), 'stranger@example.com', 5);
    const theirs = await submitRelease(app().url, stranger, await assetsOf(app().url, stranger), {
      title: 'Not yours',
    });
    for (const id of [theirs, randomUUID()]) {
      await page().goto(`${app().url}/dashboard/releases/${id}`);
      await expect.poll(() => page().getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
      expect(await page().title()).toBe('Not found · Tributary');
      expect(await page().locator('#not-found').textContent()).toBe(
        'This release does not exist, or it is not yours.',
      );
      expect(await page().content()).not.toContain('Not yours');
    }
    await expectAccessible(page());
  });

  it('shows a draft without stores or actions', async () => {
    const draft = await saveDraft(app().url, artist, 'Sketches');
    await page().goto(`${app().url}/dashboard/releases/${draft}`);
    await expect.poll(() => page().getByRole('heading', { level: 1 }).textContent()).toBe('Sketches');
    expect(await page().locator('#release-status').textContent()).toBe('◌Draft');
    expect(await page().locator('main').textContent()).toContain(
      'This release is a draft: no store has it until it is submitted.',
    );
    expect(await page().getByRole('button', { name: 'Take down…' }).count()).toBe(0);
    await expectAccessible(page());
  });

  it('made no request to another origin and met no policy refusal', async () => {
    expectStayedOnOrigin();
    expect(origin().webSockets().length).toBeGreaterThan(0);
  });
});
