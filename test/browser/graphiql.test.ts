/**
 * GraphiQL in a real browser (Debian's chromium, driven by playwright-core): the page loads with no
 * request leaving the service, and runs `{ me { email } }` against it. CI installs chromium.
 */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { useChromium } from '../support/browser.ts';
import { accountWithToken } from '../support/factories.ts';

const app = useTestApp({ GRAPHIQL: 'true' });
const browser = useChromium();

describe('GraphiQL at /graphql', () => {
  it('loads offline and runs { me { email } } from the page, under its security headers and nothing refused', async () => {
    const account = await accountWithToken(app().em());
    const page = await browser().newPage();
    const origin = new URL(app().url).origin;
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:')
        elsewhere.push(req.url());
    });
    // The token a person would type into GraphiQL's headers tab, added to the page's own requests.
    await page.route(`${origin}/graphql**`, (route) =>
      route.request().method() === 'POST'
        ? route.continue({
            headers: { ...route.request().headers(), authorization: `Bearer ${account.token}` },
          })
        : route.continue(),
    );
    const query = encodeURIComponent('{ me { email } }');
    const loaded = await page.goto(`${app().url}/graphql?query=${query}`, {
      waitUntil: 'load',
      timeout: 30_000,
    });
    const headers = loaded?.headers() ?? {};
    expect(headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'sha256-[^']+'/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ timeout: 20_000 });
    await run.click();
    await expect
      .poll(async () => (await page.locator('.graphiql-response').textContent()) ?? '', { timeout: 15_000 })
      .toContain(account.email);
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  }, 90_000);
});
