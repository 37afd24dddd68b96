/**
 * The dashboard's Credits page in headless chromium: sign in from the page, the balance, the ledger
 * paged through 60 moves, Buy credits in the sandbox and back with the new balance, the keyboard, axe,
 * 360 px, sign-out; nothing leaves the origin and the page's policy refuses nothing it needs.
 * Screenshots go to test-artefacts/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rolldown } from 'rolldown';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
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
import { graphql } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';

const app = useTestApp();
const { browser, page, origin, expectStayedOnOrigin, atPhoneWidth } = useDashboardPage(app);
let account: { id: string; email: string; password: string };

/** 60 grants of 1, 2, … 60 credits: the ledger's newest move is +60, the balance 1,830. */
const MOVES = 60;
const BALANCE = (MOVES * (MOVES + 1)) / 2;

beforeAll(async () => {
  account = await accountWithPassword(app().em(), 'credits.page@example.com');
  for (let amount = 1; amount <= MOVES; amount++)
    await grantCredits(app().em(), { accountId: account.id, credits: amount, ref: `test:${amount}` });
}, 60_000);

const rows = () => page().locator('#ledger tbody tr');
const firstAmount = () => rows().first().locator('td[data-label="Credits"]').textContent();

describe('dashboard: Credits', () => {
  it('signs in from the page and comes back to it: the balance and the newest ledger page', async () => {
    await signInPage(page(), app().url, account);
    await expect.poll(() => page().locator('#balance').textContent()).toBe(BALANCE.toLocaleString('en-US'));
    expect(await page().getByRole('heading', { level: 1 }).textContent()).toBe('Credits');
    await expect.poll(() => rows().count()).toBe(20);
    expect(await firstAmount()).toBe('+60');
    expect(await rows().first().locator('td[data-label="Balance after"]').textContent()).toBe('1,830');
    expect(await rows().first().locator('td[data-label="Reference"]').textContent()).toBe('test:60');
    expect(await page().getByRole('link', { name: 'Credits' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page(), 'dashboard-credits');
  });

  it('pages through the 60 moves with Next and Previous', async () => {
    const next = page().getByRole('button', { name: 'Next' });
    const previous = page().getByRole('button', { name: 'Previous' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(firstAmount).toBe('+40');
    await next.click();
    await expect.poll(firstAmount).toBe('+20');
    expect(await rows().last().locator('td[data-label="Credits"]').textContent()).toBe('+1');
    await expect.poll(() => next.isDisabled()).toBe(true);
    expect(await page().locator('nav.pager').textContent()).toContain('Page 3');
    await previous.click();
    await expect.poll(firstAmount).toBe('+40');
    await previous.click();
    await expect.poll(firstAmount).toBe('+60');
    await expect.poll(() => previous.isDisabled()).toBe(true);
    expect(await rows().count()).toBe(20);
  });

  it('has no serious or critical accessibility violation, and every control is reached by Tab with a visible focus', async () => {
    await expectAccessible(page());
    // From the top of a fresh page: Tab walks the controls in order.
    await page().reload();
    await expect.poll(() => rows().count()).toBe(20);
    expectKeyboardReach(await tabStops(page(), 30), [
      'Skip to the page',
      'Releases',
      'Streams',
      'Credits',
      'Developer settings',
      'Sign out',
      'Buy credits',
      'Next',
    ]);
  });

  it('fits 360 px without sideways scrolling, the ledger as cards', async () => {
    await atPhoneWidth(async () => {
      await page().reload();
      await expect.poll(() => rows().count()).toBe(20);
      await expectPhoneLayout(page(), '#ledger', 'dashboard-credits-360');
    });
  });

  it('buys credits in the sandbox checkout and shows the new balance on return', async () => {
    await page().reload();
    await expect.poll(() => rows().count()).toBe(20);
    await page()
      .getByLabel(/^25 credits for/)
      .check();
    await page().getByRole('button', { name: 'Buy credits' }).click();
    await page().waitForURL(/\/sandbox\/checkout\//);
    expect(await page().locator('#credits').textContent()).toContain('25 credits');
    await page().locator('#pay').click();
    await page().waitForURL(`${app().url}/dashboard/credits**`);
    await expect
      .poll(() => page().locator('#notice').textContent())
      .toBe('25 credits added: your balance is 1,855.');
    await expect.poll(() => page().locator('#balance').textContent()).toBe('1,855');
    await expect.poll(firstAmount).toBe('+25');
    expect(await rows().first().locator('td[data-label="What"]').textContent()).toBe('Purchase');
    expect(new URL(page().url()).search).toBe('');
    await screenshot(page(), 'dashboard-credits-bought');
  });

  it('made no request to another origin and met no policy refusal', async () => {
    expectStayedOnOrigin();
    expect(origin().count()).toBeGreaterThan(10);
  });

  it('signs out from the dashboard: its token stops working, and signing in again comes back', async () => {
    const token = await page().evaluate(
      () =>
        (JSON.parse(document.getElementById('dashboard-boot')?.textContent ?? '{}') as { token: string })
          .token,
    );
    expect((await graphql(app().url, '{ me { email } }', undefined, token)).status).toBe(200);
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().waitForURL(`${app().url}/settings/sign-in?next=%2Fdashboard`);
    expect((await graphql(app().url, '{ me { email } }', undefined, token)).status).toBe(401);
    expect(await page().title()).toBe('Sign in to your dashboard · Tributary');
  });
});

describe('dashboard: the policy and WebSockets', () => {
  it('connect-src self lets the page open a WebSocket to its own /graphql and refuses another origin’s', async () => {
    const other = await browser().newContext();
    const sockets = watchOrigin(other, new URL(app().url).origin);
    const tab = await other.newPage();
    await signInPage(tab, app().url, account);
    const port = new URL(app().url).port;
    const outcome = await tab.evaluate(
      async ({ port }) => {
        const open = (url: string) =>
          new Promise<string>((resolve) => {
            const violations: string[] = [];
            document.addEventListener('securitypolicyviolation', (event) =>
              violations.push(event.effectiveDirective),
            );
            let socket: WebSocket;
            try {
              socket = new WebSocket(url, 'graphql-transport-ws');
            } catch (error) {
              resolve(`thrown ${(error as Error).name}`);
              return;
            }
            socket.onopen = () => {
              socket.close();
              resolve('open');
            };
            socket.onerror = () => setTimeout(() => resolve(`error ${violations.join(',')}`), 100);
          });
        return {
          same: await open(`ws://${location.host}/graphql`),
          // The same server under another name: another origin, which the policy must refuse.
          other: await open(`ws://localhost:${port}/graphql`),
        };
      },
      { port },
    );
    expect(outcome.same).toBe('open');
    expect(outcome.other).toMatch(/connect-src/);
    expect(sockets.webSockets()).toEqual([`ws://${new URL(app().url).host}/graphql`]);
    await other.close();
  });
});

/** Modules of packages/dashboard/src/lib bundled as one script exposing them on `globalThis.toolkit`. */
async function toolkitScript(modules: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-toolkit-'));
  const lib = path.resolve('packages/dashboard/src/lib');
  const entry = path.join(dir, 'toolkit.ts');
  writeFileSync(
    entry,
    `${Object.entries(modules)
      .map(([name, file]) => `import { ${name} } from '${path.join(lib, file)}';`)
      .join(
        '\n',
      )}\n(globalThis as Record<string, unknown>).toolkit = { ${Object.keys(modules).join(', ')} };\n`,
  );
  try {
    const bundle = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent' });
    const { output } = await bundle.generate({ format: 'iife' });
    await bundle.close();
    return output[0].code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('dashboard: the shared toolkit in a page', () => {
  it('status chips say each AggregateStatus in words, readable in light and dark; not found is said', async () => {
    const tab = await browser().newPage();
    await signInPage(tab, app().url, account);
    await expect.poll(() => tab.locator('#ledger tbody tr').count()).toBeGreaterThan(0);
    // Evaluated like axe (the page's policy refuses injected scripts), into the signed-in page.
    await tab.evaluate(await toolkitScript({ statusChip: 'status-chip.ts', showNotFound: 'not-found.ts' }));
    const chips = await tab.evaluate(() => {
      const { statusChip } = (globalThis as unknown as { toolkit: { statusChip(s: string): HTMLElement } })
        .toolkit;
      const root = document.getElementById('page')!;
      const statuses = ['QUEUED', 'PENDING', 'DELIVERED', 'DISTRIBUTED', 'TAKEN_DOWN', 'ARCHIVED'];
      root.replaceChildren(...statuses.map((status) => statusChip(status)));
      // The word is the chip's text after its shape, which screen readers skip (aria-hidden).
      return [...root.children].map((chip) => ({
        text: chip.childNodes[1]?.textContent ?? '',
        hidden: chip.firstElementChild?.getAttribute('aria-hidden'),
        class: chip.className,
      }));
    });
    expect(chips.every((chip) => chip.hidden === 'true')).toBe(true);
    expect(chips.map((chip) => chip.text)).toEqual([
      'Queued',
      'In review',
      'Delivered',
      'Live',
      'Taken down',
      'ARCHIVED',
    ]);
    expect(chips.at(-1)?.class).toBe('chip chip-unknown');
    await expectAccessible(tab);
    await tab.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(tab);

    await tab.evaluate(() => {
      const { showNotFound } = (
        globalThis as unknown as { toolkit: { showNotFound(root: HTMLElement, what: string): void } }
      ).toolkit;
      showNotFound(document.getElementById('page')!, 'release');
    });
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    expect(await tab.title()).toBe('Not found · Tributary');
    expect(await tab.locator('#not-found').textContent()).toBe(
      'This release does not exist, or it is not yours.',
    );
    await tab.close();
  });
});
