import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('money under concurrency', () => {
  const app = useTestApp({ DATABASE_POOL_MAX: '20' });

  it('50 concurrent submissions on a balance that covers 20: exactly 20 succeed, balance 0, ledger chain consistent', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(app().url, 'POST', '/v1/releases', {
          token: account.token,
          body: validSubmission(assets, 1),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    for (const refused of responses.filter((r) => r.status === 409))
      expect(refused.body.code).toBe('insufficient_credits');

    const em = app().em();
    expect((await em.findOneOrFail(Account, { id: account.accountId })).creditBalance).toBe(0);
    expect(await em.count(Release, { account: account.accountId, status: 'submitted' })).toBe(20);
    const ledger = await em.find(
      CreditTransaction,
      { account: account.accountId },
      { orderBy: { seq: 'asc' } },
    );
    let running = 0;
    for (const row of ledger) {
      running += row.amount;
      expect(row.balanceAfter).toBe(running);
      expect(row.balanceAfter).toBeGreaterThanOrEqual(0);
    }
    expect(running).toBe(0);
    const debitedReleases = new Set(ledger.filter((r) => r.type === 'debit').map((r) => r.ref));
    const submitted = await em.find(Release, { account: account.accountId, status: 'submitted' });
    expect(new Set(submitted.map((r) => `release:${r.id}`))).toEqual(debitedReleases);
  }, 120_000);

  it('concurrent retries of one Idempotency-Key charge once', async () => {
    const account = await accountWithToken(app().em(), { credits: 5 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(app().url, 'POST', '/v1/releases', {
          token: account.token,
          body,
          headers: { 'idempotency-key': 'same' },
        }),
      ),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(new Set(responses.map((r) => r.body.releaseId)).size).toBe(1);
    expect(responses.filter((r) => !r.body.alreadySubmitted)).toHaveLength(1);
    expect((await app().em().findOneOrFail(Account, { id: account.accountId })).creditBalance).toBe(3);
  });
});
