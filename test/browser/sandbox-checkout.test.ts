/**
 * Buying credits in a real browser (Debian's chromium, driven by playwright-core): a hosted sandbox
 * checkout is paid (credits once, even if Pay is sent twice) or declined (nothing). CI installs chromium.
 */
import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { useTestApp } from '../support/app.ts';
import { useChromium } from '../support/browser.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const app = useTestApp();
const browser = useChromium();

const balanceOf = async (accountId: string) =>
  (await app().em().findOneOrFail(Account, { id: accountId })).creditBalance;

async function hostedCheckout(token: string, body: Record<string, unknown>) {
  const res = await request(app().url, 'POST', '/v1/credits/checkout', {
    token,
    body: { ui_mode: 'hosted', ...body },
  });
  expect(res.status).toBe(200);
  return res.body as { url: string; sessionId: string };
}

describe('sandbox checkout in the browser', () => {
  it('checkout → hosted page → Pay: the balance rises by the bundle exactly once', async () => {
    const account = await accountWithToken(app().em(), { credits: 3 });
    const opened = await hostedCheckout(account.token, {
      package_id: 'credits_25',
      success_path: '/checkout/complete?from=test',
    });
    const page = await browser().newPage();
    await page.goto(opened.url, { waitUntil: 'load' });
    expect(await page.locator('#amount').textContent()).toBe('22.50 USD');
    await page.locator('#pay').click();
    await page.waitForURL(`${app().url}/checkout/complete?from=test&*`.replace('&*', '**'));
    expect(await page.locator('#result').textContent()).toBe('Payment received');
    expect(await balanceOf(account.accountId)).toBe(28);
    // The same Pay again (back button, double submit): no second credit.
    await page.goBack();
    await page.goto(opened.url, { waitUntil: 'load' });
    await page.close();
    const again = await request(app().url, 'POST', `/sandbox/checkout/${opened.sessionId}/pay`, {
      rawBody: 'card_number=4242424242424242',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.status).toBe(303);
    expect(await balanceOf(account.accountId)).toBe(28);
    const purchases = await app()
      .em()
      .find(CreditTransaction, { account: account.accountId, type: 'purchase' });
    expect(purchases.map((p) => [p.amount, p.ref])).toEqual([[25, `checkout:${opened.sessionId}`]]);
  }, 60_000);

  it('checkout → hosted page → Decline: nothing is credited, and the page no longer takes payment', async () => {
    const account = await accountWithToken(app().em());
    const opened = await hostedCheckout(account.token, { credits: 5 });
    const page = await browser().newPage();
    await page.goto(opened.url, { waitUntil: 'load' });
    await page.locator('#decline').click();
    await expect.poll(() => page.locator('#result').textContent()).toBe('Payment declined');
    await page.goto(opened.url, { waitUntil: 'load' });
    expect(await page.locator('#status').textContent()).toContain('declined');
    await page.close();
    expect(await balanceOf(account.accountId)).toBe(0);
    expect(await app().em().count(CreditTransaction, { account: account.accountId })).toBe(0);
  }, 60_000);

  it('a declined test card credits nothing', async () => {
    const account = await accountWithToken(app().em());
    const opened = await hostedCheckout(account.token, { credits: 5 });
    const page = await browser().newPage();
    await page.goto(opened.url, { waitUntil: 'load' });
    await page.locator('input[name=card_number]').fill('4000 0000 0000 0002');
    await page.locator('#pay').click();
    await expect.poll(() => page.locator('#result').textContent()).toBe('Payment declined');
    await page.close();
    expect(await balanceOf(account.accountId)).toBe(0);
  }, 60_000);

  it('embedded checkout mounted by its page, paid with "save this card": auto-reload can then be enabled', async () => {
    const account = await accountWithToken(app().em());
    const before = await request(app().url, 'POST', '/v1/me/autoreload', {
      token: account.token,
      body: { enabled: true },
    });
    expect(before.status).toBe(409);
    const opened = await request(app().url, 'POST', '/v1/credits/checkout', {
      token: account.token,
      body: { package_id: 'credits_10' },
    });
    expect(opened.body.uiMode).toBe('embedded');
    const page = await browser().newPage();
    await page.goto(
      `${app().url}/sandbox/embedded?client_secret=${encodeURIComponent(opened.body.clientSecret)}`,
    );
    const frame = page.frameLocator('#checkout');
    await frame.locator('input[name=save_card]').check();
    await frame.locator('#pay').click();
    await expect.poll(() => frame.locator('#result').textContent()).toBe('Payment received');
    await page.close();
    expect(await balanceOf(account.accountId)).toBe(10);
    const enabled = await request(app().url, 'POST', '/v1/me/autoreload', {
      token: account.token,
      body: { enabled: true, threshold_credits: 1 },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, card: { brand: 'visa', last4: '4242' } });
  }, 60_000);
});
