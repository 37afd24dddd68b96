import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { freePort } from '../../src/platform/free-port.ts';
import { createTestDatabase } from '../support/database.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { startServerProcess } from '../support/server-process.ts';

describe('a server killed in the middle of submissions', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-crash-'));
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no debit and creates no unpaid release; retries with the same keys settle every submission once', async () => {
    const database = await createTestDatabase('crash');
    cleanup.push(database.drop);
    const orm = await MikroORM.init(ormConfig(database.url, 4));
    cleanup.push(() => orm.close());
    const port = await freePort();
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    let server = await startServerProcess(env, port);
    const { url } = server;
    const account = await accountWithToken(orm.em.fork(), { credits: 100 });
    const assets = await uploadAssets(url, account);

    const submissions = Array.from({ length: 40 }, (_, i) => ({
      key: `crash-${i}`,
      body: validSubmission(assets, 2),
    }));
    const inFlight = submissions.map((s) =>
      request(url, 'POST', '/v1/releases', {
        token: account.token,
        body: s.body,
        headers: { 'idempotency-key': s.key },
      }).catch(() => null),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    await server.kill9();
    const answered = (await Promise.all(inFlight)).filter((r) => r?.status === 201).length;

    const check = async () => {
      const em = orm.em.fork();
      const balance = (await em.findOneOrFail(Account, { id: account.accountId })).creditBalance;
      const submitted = await em.find(Release, { account: account.accountId, status: 'submitted' });
      const debits = await em.find(CreditTransaction, { account: account.accountId, type: 'debit' });
      expect(new Set(debits.map((d) => d.ref))).toEqual(new Set(submitted.map((r) => `release:${r.id}`)));
      for (const release of submitted) {
        const paid = debits
          .filter((d) => d.ref === `release:${release.id}`)
          .reduce((sum, d) => sum - d.amount, 0);
        expect(paid).toBe(release.creditsSpent);
      }
      expect(balance).toBe(100 - submitted.reduce((sum, r) => sum + r.creditsSpent, 0));
      return submitted.length;
    };
    const afterCrash = await check();
    expect(afterCrash).toBeGreaterThanOrEqual(answered);

    server = await startServerProcess(env, port);
    cleanup.push(server.stop);
    for (const s of submissions) {
      const retry = await request(url, 'POST', '/v1/releases', {
        token: account.token,
        body: s.body,
        headers: { 'idempotency-key': s.key },
      });
      expect(retry.status).toBe(201);
    }
    expect(await check()).toBe(40);
    expect((await orm.em.fork().findOneOrFail(Account, { id: account.accountId })).creditBalance).toBe(20);
  }, 120_000);
});
