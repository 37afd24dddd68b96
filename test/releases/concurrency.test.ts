import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { type JsonResponse, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';

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

  it('concurrent retries of one Idempotency-Key on a balance that covers one submission replay it, not insufficient_credits', async () => {
    const account = await accountWithToken(app().em(), { credits: 2 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    const lockHolder = app().em();
    await lockHolder.begin();
    let responses: JsonResponse<{ code?: string; releaseId?: string; alreadySubmitted?: boolean }>[];
    try {
      // The account's row is held, so every retry gets past the key lookup and waits at the debit.
      await lockHolder.execute('select id from accounts where id = ? for update', [account.accountId]);
      const pending = Promise.all(
        Array.from({ length: 3 }, () =>
          request(app().url, 'POST', '/v1/releases', {
            token: account.token,
            body,
            headers: { 'idempotency-key': 'one-balance' },
          }),
        ),
      );
      await waitFor(
        async () => {
          const [row] = await app()
            .em()
            .execute<{ waiting: string }[]>(
              `select count(*) as waiting from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
            );
          return Number(row?.waiting);
        },
        (waiting) => waiting >= 3,
        60_000,
      );
      await lockHolder.commit();
      responses = await pending;
    } catch (error) {
      await lockHolder.rollback().catch(() => undefined);
      throw error;
    }
    expect(responses.map((r) => [r.status, r.body.code])).toEqual(
      Array.from({ length: 3 }, () => [201, undefined]),
    );
    expect(new Set(responses.map((r) => r.body.releaseId)).size).toBe(1);
    expect(responses.filter((r) => !r.body.alreadySubmitted)).toHaveLength(1);
    expect((await app().em().findOneOrFail(Account, { id: account.accountId })).creditBalance).toBe(0);
  }, 120_000);
});
