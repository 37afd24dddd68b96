import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { CheckoutSession } from '../../src/domains/payments/checkout-session.entity.ts';
import { Payment } from '../../src/domains/payments/payment.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { completionEvent } from '../support/payment-events.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const app = useTestApp();

async function checkout(token: string, body: Record<string, unknown>) {
  return request(app().url, 'POST', '/v1/credits/checkout', { token, body });
}

const sign = (payload: string, secret = app().services.payments.webhookSecret) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

const deliver = (payload: string, signature: string) =>
  request(app().url, 'POST', '/v1/payments/stripe/events', {
    rawBody: payload,
    headers: { 'stripe-signature': signature },
  });

async function balanceOf(accountId: string) {
  return (await app().em().findOneOrFail(Account, { id: accountId })).creditBalance;
}

describe('POST /v1/credits/checkout (sandbox)', () => {
  it('hosted bundle: exactly the documented fields, a page of ours, and no credits yet', async () => {
    const account = await accountWithToken(app().em());
    const res = await checkout(account.token, { package_id: 'credits_25', ui_mode: 'hosted' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'amount',
        'credits',
        'currency',
        'expiresAt',
        'packageId',
        'publishableKey',
        'sessionId',
        'uiMode',
        'url',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      uiMode: 'hosted',
      amount: 2250,
      currency: 'USD',
      credits: 25,
      packageId: 'credits_25',
    });
    expect(res.body.url).toBe(`${app().url}/sandbox/checkout/${res.body.sessionId}`);
    expect(res.body.publishableKey).toMatch(/^pk_/);
    expect(new Date(res.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(await balanceOf(account.accountId)).toBe(0);
  });

  it('custom amount: package_id wins over credits; without one, credits at 1 USD and no packageId', async () => {
    const account = await accountWithToken(app().em());
    const custom = await checkout(account.token, { credits: 7, ui_mode: 'hosted' });
    expect(custom.status).toBe(200);
    expect(custom.body).toMatchObject({ amount: 700, credits: 7 });
    expect('packageId' in custom.body).toBe(false);
    const both = await checkout(account.token, { credits: 7, package_id: 'credits_10', ui_mode: 'hosted' });
    expect(both.body).toMatchObject({ amount: 1000, credits: 10, packageId: 'credits_10' });
  });

  it('embedded by default: clientSecret, publishableKey, uiMode (packageId for bundles) and a page that mounts it', async () => {
    const account = await accountWithToken(app().em());
    const res = await checkout(account.token, { package_id: 'credits_10' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['clientSecret', 'packageId', 'publishableKey', 'uiMode']);
    expect(res.body.uiMode).toBe('embedded');
    const mounted = await request(
      app().url,
      'GET',
      `/sandbox/embedded?client_secret=${encodeURIComponent(res.body.clientSecret)}`,
    );
    expect(mounted.status).toBe(200);
    expect(mounted.body).toContain('/sandbox/checkout/cs_sandbox_');
    const forged = await request(
      app().url,
      'GET',
      `/sandbox/embedded?client_secret=${encodeURIComponent(`${res.body.clientSecret}x`)}`,
    );
    expect(forged.status).toBe(404);
  });

  it('refuses bad amounts, unknown bundles, bad ui_mode and open redirects, writing nothing', async () => {
    const account = await accountWithToken(app().em());
    for (const [body, path] of [
      [{ credits: 0 }, 'credits'],
      [{ credits: 1001 }, 'credits'],
      [{}, 'credits'],
      [{ package_id: 'credits_999' }, 'package_id'],
      [{ credits: 5, success_path: 'https://evil.example/x' }, 'success_path'],
      [{ credits: 5, success_path: '//evil.example/x' }, 'success_path'],
      [{ credits: 5, success_path: 'javascript:alert(1)' }, 'success_path'],
      [{ credits: 5, success_path: '/\\evil.example' }, 'success_path'],
      // PUBLIC_URL's host on another port is another service.
      [{ credits: 5, success_path: 'https://127.0.0.1:1/x' }, 'success_path'],
    ] as const) {
      const res = await checkout(account.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details?.[0]?.path, JSON.stringify(body)).toBe(path);
    }
    const mode = await checkout(account.token, { credits: 5, ui_mode: 'popup' });
    expect(mode.status).toBe(400);
    expect(await app().em().count(CheckoutSession, { account: account.accountId })).toBe(0);
    const anonymous = await request(app().url, 'POST', '/v1/credits/checkout', { body: { credits: 5 } });
    expect(anonymous.status).toBe(401);
  });
});

describe('sandbox checkout pages by id', () => {
  it('an id or client secret nobody was given answers 404 and pays nothing; paying credits the opener only', async () => {
    const owner = await accountWithToken(app().em());
    const opened = await checkout(owner.token, { credits: 3, ui_mode: 'hosted' });
    expect(opened.status).toBe(200);
    const guessed = `cs_sandbox_${'A'.repeat(22)}`;
    expect((await request(app().url, 'GET', `/sandbox/checkout/${guessed}`)).status).toBe(404);
    const pay = await fetch(`${app().url}/sandbox/checkout/${guessed}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242',
    });
    expect(pay.status).toBe(404);
    const secret = `${opened.body.sessionId}_secret_${'B'.repeat(22)}`;
    const embedded = await request(app().url, 'GET', `/sandbox/embedded?client_secret=${secret}`);
    expect(embedded.status).toBe(404);

    const payer = await accountWithToken(app().em());
    const paid = await fetch(`${app().url}/sandbox/checkout/${opened.body.sessionId}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${payer.token}`,
      },
      body: 'card_number=4242424242424242',
    });
    expect(paid.status).toBe(303);
    expect(new URL(paid.headers.get('location')!).origin).toBe(new URL(app().url).origin);
    expect(await balanceOf(owner.accountId)).toBe(3);
    expect(await balanceOf(payer.accountId)).toBe(0);
  });
});

describe('payment events', () => {
  it('a tampered or missing signature is refused with 400 and changes nothing', async () => {
    const account = await accountWithToken(app().em());
    const opened = await checkout(account.token, { credits: 5, ui_mode: 'hosted' });
    const payload = completionEvent(opened.body.sessionId, 500);
    const tampered = payload.replace('"amount_total":500', '"amount_total":501');
    const res = await deliver(tampered, sign(payload));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('signature_invalid');
    expect((await deliver(payload, sign(payload, 'whsec_other'))).status).toBe(400);
    expect(
      (await request(app().url, 'POST', '/v1/payments/stripe/events', { rawBody: payload })).status,
    ).toBe(400);
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: app().services.payments.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect((await deliver(payload, old)).status).toBe(400);
    expect(await balanceOf(account.accountId)).toBe(0);
    expect(await app().em().count(Payment, { account: account.accountId })).toBe(0);
  });

  it('a signed event for a session opened elsewhere is acknowledged and changes nothing', async () => {
    const payload = completionEvent('cs_sandbox_neveropenedhere0000', 500);
    const res = await deliver(payload, sign(payload));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, result: 'ignored' });
    expect(await app().em().count(Payment, { reference: 'checkout:cs_sandbox_neveropenedhere0000' })).toBe(0);
  });

  it('50 concurrent deliveries of the same completion event: exactly one ledger entry', async () => {
    const account = await accountWithToken(app().em());
    const opened = await checkout(account.token, { package_id: 'credits_50', ui_mode: 'hosted' });
    const payload = completionEvent(opened.body.sessionId, 4000);
    const signature = sign(payload);
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(payload, signature)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.result === 'credited')).toHaveLength(1);
    expect(answers.filter((a) => a.body.result === 'duplicate')).toHaveLength(49);
    const entries = await app().em().find(CreditTransaction, { account: account.accountId });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      type: 'purchase',
      amount: 50,
      balanceAfter: 50,
      ref: `checkout:${opened.body.sessionId}`,
    });
    expect(await balanceOf(account.accountId)).toBe(50);
    const credits = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(credits.body.aggregates.purchasedTotal).toBe(50);
  });

  it('a paid amount that differs from the checkout is refused', async () => {
    const account = await accountWithToken(app().em());
    const opened = await checkout(account.token, { credits: 5, ui_mode: 'hosted' });
    const payload = completionEvent(opened.body.sessionId, 100);
    const res = await deliver(payload, sign(payload));
    expect(res.status).toBe(400);
    expect(await balanceOf(account.accountId)).toBe(0);
  });
});

describe('a shortfall points at the real checkout', () => {
  it("the quote's purchase carries a checkout request that opens one; the submit error names the same", async () => {
    const account = await accountWithToken(app().em(), { credits: 1 });
    const submission = validSubmission(await uploadAssets(app().url, account), 2);
    const quote = await request(app().url, 'POST', '/v1/releases/quote', {
      token: account.token,
      body: submission,
    });
    expect(quote.status).toBe(200);
    expect(quote.body.purchase).toMatchObject({
      packageId: 'credits_10',
      checkout: {
        method: 'POST',
        path: '/v1/credits/checkout',
        body: { package_id: 'credits_10' },
        agentTool: 'create_credit_checkout_session',
        agentArguments: { packageId: 'credits_10' },
      },
    });
    const link = quote.body.purchase.checkout;
    const opened = await request(app().url, link.method, link.path, {
      token: account.token,
      body: { ...link.body, ui_mode: 'hosted' },
    });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ packageId: 'credits_10', credits: 10 });

    const refused = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: submission,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_credits');
    const named = /POST (\/v1\/credits\/checkout) (\{[^}]*\})/.exec(refused.body.message);
    expect(named).not.toBeNull();
    const followed = await request(app().url, 'POST', named![1]!, {
      token: account.token,
      body: JSON.parse(named![2]!),
    });
    expect(followed.status).toBe(200);
    expect(refused.body.message).toContain('create_credit_checkout_session');
  });
});
