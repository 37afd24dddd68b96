import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { AUTO_RELOAD_QUEUE } from '../../src/domains/credits/auto-reload-trigger.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { postLedgerEntry } from '../../src/domains/credits/post-ledger-entry.ts';
import { AUTO_RELOAD_DAILY_CAP, runAutoReload } from '../../src/domains/payments/auto-reload-job.ts';
import { AutoReloadSetting } from '../../src/domains/payments/auto-reload-setting.entity.ts';
import type { PaymentsPort } from '../../src/domains/payments/port.ts';
import { createSandboxPayments } from '../../src/domains/payments/sandbox-payments.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';

/** The sandbox adapter, with off-session charges that wait while a test holds `gate` closed. */
const sandbox = createSandboxPayments({ publicUrl: 'http://127.0.0.1', secretKey: randomBytes(32) });
let gate: Promise<void> = Promise.resolve();
const payments: PaymentsPort = {
  ...sandbox,
  chargeOffSession: async (charge) => {
    await gate;
    return sandbox.chargeOffSession(charge);
  },
};
const app = useTestApp({}, { background: true, services: { payments } });

const balanceOf = async (accountId: string) =>
  (await app().em().findOneOrFail(Account, { id: accountId })).creditBalance;

/** Buys credits through the sandbox's hosted page with a test card, saving it. */
async function buyWithSavedCard(account: AccountFixture, credits: number, card = '4242424242424242') {
  const opened = await request(app().url, 'POST', '/v1/credits/checkout', {
    token: account.token,
    body: { credits, ui_mode: 'hosted', save_payment_method: true },
  });
  expect(opened.status).toBe(200);
  const paid = await request(app().url, 'POST', `/sandbox/checkout/${opened.body.sessionId}/pay`, {
    rawBody: `card_number=${card}&save_card=on`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.status).toBe(303);
}

const setAutoReload = (account: AccountFixture, body: Record<string, unknown>) =>
  request(app().url, 'POST', '/v1/me/autoreload', { token: account.token, body });

const debit = (accountId: string, amount: number, ref: string) =>
  app()
    .em()
    .transactional((tem) => postLedgerEntry(tem, { accountId, type: 'debit', amount: -amount, ref }));

const reloadsOf = (accountId: string) =>
  app().em().find(CreditTransaction, { account: accountId, type: 'auto_reload' });

/** Waits until no reload is in flight for the account. */
async function settled(accountId: string) {
  const setting = await waitFor(
    () => app().em().findOne(AutoReloadSetting, { account: accountId }),
    (found) => found?.inFlightSince === null && found.lastStatus !== null,
  );
  if (!setting) throw new Error('no auto-reload settings');
  return setting;
}

const balanceReaches = (accountId: string, balance: number) =>
  waitFor(
    () => balanceOf(accountId),
    (value) => value === balance,
  );

describe('auto-reload', () => {
  it('GET /v1/me/autoreload starts unconfigured; enabling without a saved card is a 409 naming the fix', async () => {
    const account = await accountWithToken(app().em());
    const read = await request(app().url, 'GET', '/v1/me/autoreload', { token: account.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      enabled: false,
      configured: false,
      thresholdCredits: 0,
      packageId: null,
      reloadCredits: null,
      reloadAmountCents: null,
      card: null,
      lastStatus: null,
      lastReason: null,
      lastTriggeredAt: null,
    });
    const refused = await setAutoReload(account, { enabled: true, package_id: 'credits_10' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('saved_card_required');
    expect(refused.body.message).toContain('save_payment_method');
    expect(refused.body.message).toContain('POST /v1/credits/checkout');
    expect(await app().em().count(AutoReloadSetting, { account: account.accountId })).toBe(0);
    const missing = await request(app().url, 'POST', '/v1/me/autoreload', { token: account.token, body: {} });
    expect(missing.status).toBe(400);
  });

  it('a saved card enables it; a submit crossing the threshold triggers exactly one reload', async () => {
    const account = await accountWithToken(app().em());
    await buyWithSavedCard(account, 5);
    const other = await setAutoReload(account, { enabled: true, payment_method_id: 'pm_someone_elses' });
    expect(other.status).toBe(422);
    const enabled = await setAutoReload(account, {
      enabled: true,
      package_id: 'credits_10',
      quantity: 3,
      threshold_credits: 3,
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({
      enabled: true,
      configured: true,
      thresholdCredits: 3,
      packageId: 'credits_10',
      reloadCredits: 10,
      reloadAmountCents: 1000,
      card: { brand: 'visa', last4: '4242' },
    });
    const assets = await uploadAssets(app().url, account);
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: validSubmission(assets, 2),
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.balanceAfter).toBe(3);
    expect(await balanceReaches(account.accountId, 13)).toBe(13);
    const setting = await settled(account.accountId);
    expect(setting.lastStatus).toBe('succeeded');
    const reloads = await reloadsOf(account.accountId);
    expect(reloads.map((r) => [r.amount, r.balanceAfter])).toEqual([[10, 13]]);
    expect(reloads[0]!.ref).toMatch(/^autoreload:/);
    const read = await request(app().url, 'GET', '/v1/me/autoreload', { token: account.token });
    expect(read.body.lastStatus).toBe('succeeded');
    expect(read.body.lastTriggeredAt).not.toBeNull();
    const credits = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(credits.body.aggregates.purchasedTotal).toBe(15);
  });

  it('many debits crossing the threshold at once: one reload in flight, one reload', async () => {
    const account = await accountWithToken(app().em());
    await buyWithSavedCard(account, 20);
    expect((await setAutoReload(account, { enabled: true, quantity: 7, threshold_credits: 15 })).status).toBe(
      200,
    );
    let open = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    // Balances 19..10: six of these debits leave it at or below 15, while the first reload is held.
    await Promise.all(Array.from({ length: 10 }, (_, i) => debit(account.accountId, 1, `test:${i}`)));
    const [jobs] = await app()
      .em()
      .execute<{ count: string }[]>(
        `select count(*) as count from pgboss.job where name = ? and data->>'accountId' = ?`,
        [AUTO_RELOAD_QUEUE, account.accountId],
      );
    expect(Number(jobs?.count)).toBe(1);
    open();
    expect(await balanceReaches(account.accountId, 17)).toBe(17);
    await settled(account.accountId);
    expect(await reloadsOf(account.accountId)).toHaveLength(1);
  });

  it('a job that finds the balance above the threshold again (a purchase came first) charges nothing', async () => {
    const account = await accountWithToken(app().em());
    await buyWithSavedCard(account, 20);
    expect((await setAutoReload(account, { enabled: true, quantity: 7, threshold_credits: 15 })).status).toBe(
      200,
    );
    // As a debit would have left it: the slot claimed for a job that runs late, after a purchase.
    await app()
      .em()
      .nativeUpdate(AutoReloadSetting, { account: account.accountId }, { inFlightSince: new Date() });
    const outcome = await runAutoReload(app().em().fork(), payments, account.accountId, randomUUID());
    expect(outcome).toBe('skipped');
    expect(await reloadsOf(account.accountId)).toHaveLength(0);
    expect(await balanceOf(account.accountId)).toBe(20);
    const setting = await app().em().fork().findOneOrFail(AutoReloadSetting, { account: account.accountId });
    expect(setting.inFlightSince).toBeNull();
    expect(setting.enabled).toBe(true);
  });

  it('a card that needs authentication off-session disables auto-reload with the reason', async () => {
    const account = await accountWithToken(app().em());
    await buyWithSavedCard(account, 4, '4000002760003184');
    expect((await setAutoReload(account, { enabled: true, threshold_credits: 2 })).status).toBe(200);
    await debit(account.accountId, 2, 'test:spend');
    const setting = await settled(account.accountId);
    expect(setting).toMatchObject({ enabled: false, lastStatus: 'authentication_required' });
    expect(setting.lastReason).toMatch(/authentication/);
    expect(await reloadsOf(account.accountId)).toHaveLength(0);
    const read = await request(app().url, 'GET', '/v1/me/autoreload', { token: account.token });
    expect(read.body).toMatchObject({ enabled: false, lastStatus: 'authentication_required' });
    // Disabled: a further debit below the threshold enqueues nothing.
    await debit(account.accountId, 1, 'test:more');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(
      (await app().em().findOneOrFail(AutoReloadSetting, { account: account.accountId })).inFlightSince,
    ).toBeNull();
  });

  it(`the daily cap: after ${AUTO_RELOAD_DAILY_CAP} reloads in 24 hours the next one waits`, async () => {
    const account = await accountWithToken(app().em());
    await buyWithSavedCard(account, 50);
    expect(
      (await setAutoReload(account, { enabled: true, quantity: 1, threshold_credits: 100 })).status,
    ).toBe(200);
    const statuses: (string | null)[] = [];
    for (let i = 0; i < AUTO_RELOAD_DAILY_CAP + 1; i++) {
      await debit(account.accountId, 1, `test:${i}`);
      statuses.push((await settled(account.accountId)).lastStatus ?? null);
      await app().em().nativeUpdate(AutoReloadSetting, { account: account.accountId }, { lastStatus: null });
    }
    expect(statuses).toEqual([...Array(AUTO_RELOAD_DAILY_CAP).fill('succeeded'), 'daily_cap_reached']);
    const setting = await app().em().findOneOrFail(AutoReloadSetting, { account: account.accountId });
    expect(setting.enabled).toBe(true);
    expect(await reloadsOf(account.accountId)).toHaveLength(AUTO_RELOAD_DAILY_CAP);
  });
});
