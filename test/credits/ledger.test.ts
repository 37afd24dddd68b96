import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { InsufficientCreditsError, postLedgerEntry } from '../../src/domains/credits/post-ledger-entry.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('credits ledger', () => {
  const app = useTestApp();

  it('records balance_after on every move and keeps the chain consistent under concurrency', async () => {
    const account = await accountWithToken(app().em());
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        grantCredits(app().em(), { accountId: account.accountId, credits: i + 1, ref: `grant:${i}` }),
      ),
    );
    const rows = await app()
      .em()
      .find(CreditTransaction, { account: account.accountId }, { orderBy: { seq: 'asc' } });
    expect(rows).toHaveLength(20);
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(row.balanceAfter).toBe(running);
    }
    const stored = await app().em().findOneOrFail(Account, { id: account.accountId });
    expect(stored.creditBalance).toBe(210);
  });

  it('never lets the balance go negative, and a refused debit writes no row', async () => {
    const account = await accountWithToken(app().em(), { credits: 3 });
    const em = app().em();
    const attempt = em.transactional((tem) =>
      postLedgerEntry(tem, { accountId: account.accountId, type: 'debit', amount: -5, ref: 'release:x' }),
    );
    await expect(attempt).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(attempt).rejects.toMatchObject({ shortfall: 2, code: 'insufficient_credits' });
    const count = await app().em().count(CreditTransaction, { account: account.accountId });
    expect(count).toBe(1);
    expect((await app().em().findOneOrFail(Account, { id: account.accountId })).creditBalance).toBe(3);
  });

  it('refuses to move money outside a transaction', async () => {
    const account = await accountWithToken(app().em());
    await expect(
      postLedgerEntry(app().em(), { accountId: account.accountId, type: 'grant', amount: 1 }),
    ).rejects.toThrow(/transaction/);
  });

  it('GET /v1/me/credits: newest first, limit 0..100, aggregates', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    await app()
      .em()
      .transactional((tem) =>
        postLedgerEntry(tem, { accountId: account.accountId, type: 'debit', amount: -2, ref: 'release:abc' }),
      );
    await grantCredits(app().em(), {
      accountId: account.accountId,
      credits: 25,
      type: 'purchase',
      ref: 'checkout:1',
    });
    const response = await request(app().url, 'GET', '/v1/me/credits?transactions=2', {
      token: account.token,
    });
    expect(response.status).toBe(200);
    expect(response.body.balance).toBe(33);
    expect(response.body.transactions.map((t: { ref: string }) => t.ref)).toEqual([
      'checkout:1',
      'release:abc',
    ]);
    expect(response.body.transactions[1]).toMatchObject({ type: 'debit', amount: -2, balance_after: 8 });
    expect(Object.keys(response.body.transactions[0]).sort()).toEqual([
      'amount',
      'balance_after',
      'created_at',
      'id',
      'ref',
      'type',
    ]);
    expect(response.body.aggregates).toEqual({ usedTotal: 2, purchasedTotal: 25 });
    for (const bad of ['101', '-1', 'abc', '1.5']) {
      const rejected = await request(app().url, 'GET', `/v1/me/credits?transactions=${bad}`, {
        token: account.token,
      });
      expect(rejected.status, bad).toBe(400);
      expect(rejected.body).toMatchObject({
        type: 'invalid_request_error',
        details: [{ path: 'transactions' }],
      });
    }
  });
});
