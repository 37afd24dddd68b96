import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { postLedgerEntry } from '../../src/domains/credits/post-ledger-entry.ts';
import { AutoReloadSetting } from '../../src/domains/payments/auto-reload-setting.entity.ts';
import { CheckoutSession } from '../../src/domains/payments/checkout-session.entity.ts';
import { SavedCard } from '../../src/domains/payments/saved-card.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { waitFor } from '../support/wait.ts';
import { type CardBehaviour, FakeStripe } from './stripe-server.ts';

const WEBHOOK_SECRET = 'whsec_test_tributary';
const stripe = new FakeStripe();
let app: TestApp;

beforeAll(async () => {
  await stripe.start();
  app = await startTestApp(
    {
      STRIPE_SECRET_KEY: 'sk_test_tributary',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_tributary',
      STRIPE_API_BASE: stripe.url,
    },
    { background: true },
  );
});

afterAll(async () => {
  await app?.close();
  await stripe.stop();
});

const checkout = (token: string, body: Record<string, unknown>) =>
  request(app.url, 'POST', '/v1/credits/checkout', { token, body });

function event(type: string, object: Record<string, unknown>, createdOffset = 0) {
  return JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    type,
    created: Math.floor(Date.now() / 1000) + createdOffset,
    data: { object },
  });
}

const deliver = (payload: string, secret = WEBHOOK_SECRET) =>
  request(app.url, 'POST', '/v1/payments/stripe/events', {
    rawBody: payload,
    headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
  });

const balanceOf = async (accountId: string) =>
  (await app.em().findOneOrFail(Account, { id: accountId })).creditBalance;

describe('Stripe adapter against a loopback Stripe', () => {
  it('hosted checkout: one Customer per account, a hosted_page session with deterministic idempotency keys', async () => {
    const account = await accountWithToken(app.em());
    const first = await checkout(account.token, {
      package_id: 'credits_10',
      ui_mode: 'hosted',
      save_payment_method: true,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      uiMode: 'hosted',
      publishableKey: 'pk_test_tributary',
      amount: 1000,
      credits: 10,
    });
    expect(first.body.url).toBe(`https://checkout.stripe.test/c/pay/${first.body.sessionId}`);
    const second = await checkout(account.token, { credits: 3, ui_mode: 'hosted' });
    expect(second.status).toBe(200);

    const customers = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customers).toHaveLength(1);
    expect(customers[0]!.idempotencyKey).toBe(`customer:${account.accountId}`);
    const sessions = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(-2);
    const rows = await app
      .em()
      .find(CheckoutSession, { account: account.accountId }, { orderBy: { createdAt: 'asc' } });
    expect(sessions.map((s) => s.idempotencyKey)).toEqual(rows.map((r) => `checkout:${r.id}`));
    expect(sessions[0]!.form).toMatchObject({
      mode: 'payment',
      ui_mode: 'hosted_page',
      'line_items[0][price_data][unit_amount]': '1000',
      'line_items[0][price_data][currency]': 'usd',
      'payment_intent_data[setup_future_usage]': 'off_session',
      'metadata[account_id]': account.accountId,
    });
    expect(sessions[0]!.form.customer).toMatch(/^cus_/);
    expect(sessions[0]!.form.success_url).toMatch(
      new RegExp(`^${app.url}/checkout/complete\\?checkout_session=`),
    );
    expect(sessions[1]!.form['payment_intent_data[setup_future_usage]']).toBeUndefined();
    expect(await balanceOf(account.accountId)).toBe(0);
  });

  it('embedded checkout: embedded_page with return_url; the response carries clientSecret and publishableKey', async () => {
    const account = await accountWithToken(app.em());
    const res = await checkout(account.token, { credits: 4 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['clientSecret', 'publishableKey', 'uiMode']);
    expect(res.body.clientSecret).toMatch(/^cs_test_\w+_secret_/);
    const sent = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(sent.form.ui_mode).toBe('embedded_page');
    expect(sent.form.return_url).toContain('/checkout/complete');
  });

  it('a failed call is retried by the SDK with the same idempotency key, and Stripe refusals become 502s writing nothing', async () => {
    const account = await accountWithToken(app.em());
    stripe.failNextSession = true;
    const retried = await checkout(account.token, { credits: 2, ui_mode: 'hosted' });
    expect(retried.status).toBe(200);
    const [failed, succeeded] = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(-2);
    expect(failed!.idempotencyKey).toBe(succeeded!.idempotencyKey);

    stripe.refuseNextSession = {
      type: 'invalid_request_error',
      message: 'Amount too small',
      param: 'line_items',
    };
    const before = await app.em().count(CheckoutSession, { account: account.accountId });
    const refused = await checkout(account.token, { credits: 2, ui_mode: 'hosted' });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ type: 'upstream_error', code: 'payment_provider_error' });
    expect(refused.body.message).toContain('Amount too small');
    expect(await app.em().count(CheckoutSession, { account: account.accountId })).toBe(before);
  });

  it('completion events delivered twice and out of order credit each payment once; the saved card is kept', async () => {
    const account = await accountWithToken(app.em());
    const a = await checkout(account.token, {
      package_id: 'credits_25',
      ui_mode: 'hosted',
      save_payment_method: true,
    });
    const b = await checkout(account.token, { credits: 6, ui_mode: 'hosted' });
    const paidA = stripe.pay(a.body.sessionId, { last4: '4242', behaviour: 'pays' });
    const paidB = stripe.pay(b.body.sessionId, { last4: '4444', behaviour: 'pays' });
    const completedA = event('checkout.session.completed', paidA, 0);
    const completedB = event('checkout.session.completed', paidB, 5);
    const expiredA = event('checkout.session.expired', { ...paidA, status: 'expired' }, -10);
    const results = [];
    for (const payload of [completedB, expiredA, completedA, completedB, completedA]) {
      const res = await deliver(payload);
      expect(res.status).toBe(200);
      results.push(res.body.result);
    }
    expect(results).toEqual(['credited', 'expired', 'credited', 'duplicate', 'duplicate']);
    expect(await balanceOf(account.accountId)).toBe(31);
    const purchases = await app
      .em()
      .find(CreditTransaction, { account: account.accountId }, { orderBy: { seq: 'asc' } });
    expect(purchases.map((p) => [p.type, p.amount, p.ref])).toEqual([
      ['purchase', 6, `checkout:${b.body.sessionId}`],
      ['purchase', 25, `checkout:${a.body.sessionId}`],
    ]);
    const cards = await app.em().find(SavedCard, { account: account.accountId });
    expect(cards.map((c) => [c.provider, c.brand, c.last4, c.customerId?.startsWith('cus_')])).toEqual([
      ['stripe', 'visa', '4242', true],
    ]);
    const retrieve = stripe.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/v1/payment_intents/'),
    );
    expect(retrieve).toHaveLength(1);
  });

  it('a tampered signature is refused with 400 and credits nothing', async () => {
    const account = await accountWithToken(app.em());
    const opened = await checkout(account.token, { credits: 5, ui_mode: 'hosted' });
    const paid = stripe.pay(opened.body.sessionId, { last4: '4242', behaviour: 'pays' });
    const payload = event('checkout.session.completed', paid);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = header.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    const res = await request(app.url, 'POST', '/v1/payments/stripe/events', {
      rawBody: payload,
      headers: { 'stripe-signature': tampered },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('signature_invalid');
    expect((await deliver(payload, 'whsec_someone_else')).status).toBe(400);
    expect(await balanceOf(account.accountId)).toBe(0);
  });

  /**
   * An account that paid a checkout with a saved card, auto-reload on at threshold 5 (a 10-credit bundle),
   * then spent 4 of its 8 credits: the debit that queues a reload. Answers the settled reload settings.
   */
  async function reloadAfterSpending(card: { last4: string; behaviour: CardBehaviour }, before = () => {}) {
    const account = await accountWithToken(app.em());
    const opened = await checkout(account.token, {
      credits: 8,
      ui_mode: 'hosted',
      save_payment_method: true,
    });
    const paid = stripe.pay(opened.body.sessionId, card);
    expect((await deliver(event('checkout.session.completed', paid))).body.result).toBe('credited');
    const enabled = await request(app.url, 'POST', '/v1/me/autoreload', {
      token: account.token,
      body: { enabled: true, package_id: 'credits_10', threshold_credits: 5 },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.card).toMatchObject({ brand: 'visa', last4: card.last4 });
    before();
    await app
      .em()
      .transactional((tem) =>
        postLedgerEntry(tem, { accountId: account.accountId, type: 'debit', amount: -4, ref: 'test:spend' }),
      );
    const setting = await waitFor(
      () => app.em().findOne(AutoReloadSetting, { account: account.accountId }),
      (found) => found?.lastStatus != null && found.inFlightSince === null,
      50_000,
    );
    return { account, setting };
  }

  it('off-session reload: a PaymentIntent off_session+confirm; a card needing authentication disables auto-reload with the reason', async () => {
    const { account, setting } = await reloadAfterSpending({
      last4: '3184',
      behaviour: 'authentication_required',
    });
    expect(setting).toMatchObject({ enabled: false, lastStatus: 'authentication_required' });
    expect(setting?.lastReason).toContain('requires authentication');
    const charge = stripe.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')
      .at(-1)!;
    expect(charge.form).toMatchObject({
      amount: '1000',
      currency: 'usd',
      off_session: 'true',
      confirm: 'true',
    });
    expect(charge.form.customer).toMatch(/^cus_/);
    expect(charge.form.payment_method).toMatch(/^pm_/);
    expect(charge.idempotencyKey).toMatch(/^autoreload:/);
    expect(await balanceOf(account.accountId)).toBe(4);
  });

  it('a reload charge whose answers are lost is retried with its idempotency key: charged once, credited once', async () => {
    let intentsBefore = 0;
    // The SDK's first try and its two retries lose their answers: the job itself must retry.
    const { account, setting } = await reloadAfterSpending({ last4: '4242', behaviour: 'pays' }, () => {
      intentsBefore = stripe.intents.size;
      stripe.loseIntentAnswers = 3;
    });
    expect(setting).toMatchObject({ enabled: true, lastStatus: 'succeeded' });
    const attempts = stripe.requests.filter(
      (r) => r.path === '/v1/payment_intents' && r.form['metadata[account_id]'] === account.accountId,
    );
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    expect(new Set(attempts.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(stripe.intents.size - intentsBefore).toBe(1);
    expect(await balanceOf(account.accountId)).toBe(14);
  }, 60_000);

  it("a reload's success event credits it once, whether or not the job did; other PaymentIntents are ignored", async () => {
    const account = await accountWithToken(app.em());
    const intent = (reloadId: string) => ({
      id: `pi_${reloadId}`,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1000,
      metadata: { account_id: account.accountId, reload_id: reloadId, credits: '10' },
    });
    const first = await deliver(event('payment_intent.succeeded', intent('job-lost-answer')));
    expect(first.body).toMatchObject({ result: 'credited', credits: 10 });
    const again = await deliver(event('payment_intent.succeeded', intent('job-lost-answer')));
    expect(again.body).toMatchObject({ result: 'duplicate' });
    const checkoutIntent = { id: 'pi_checkout', object: 'payment_intent', status: 'succeeded', amount: 500 };
    expect((await deliver(event('payment_intent.succeeded', checkoutIntent))).body.result).toBe('ignored');
    const forged = {
      ...intent('job-x'),
      metadata: { account_id: 'not-a-uuid', reload_id: 'job-x', credits: '10' },
    };
    expect((await deliver(event('payment_intent.succeeded', forged))).body.result).toBe('ignored');
    expect(await balanceOf(account.accountId)).toBe(10);
    const ledger = await app.em().find(CreditTransaction, { account: account.accountId });
    expect(ledger.map((t) => [t.type, t.amount, t.ref])).toEqual([
      ['auto_reload', 10, 'autoreload:job-lost-answer'],
    ]);
  });

  it('the sandbox pages do not exist with Stripe', async () => {
    const res = await request(app.url, 'GET', '/sandbox/checkout/cs_sandbox_abcdefghijklmnop');
    expect(res.status).toBe(404);
  });
});
