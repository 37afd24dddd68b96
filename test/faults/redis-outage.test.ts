import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { Submitter } from '../durability/actors.ts';
import { checkTrial, type TrialRecord, trialSettled } from '../durability/checks.ts';
import { ResumingSubscriber } from '../durability/subscriber.ts';
import { createTestDatabase } from '../support/database.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { startHttpsReceiver } from '../support/https-receiver.ts';
import { useCleanup } from '../support/process-world.ts';
import { uploadAssets } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { waitFor } from '../support/wait.ts';
import { consumedUpTo } from './recovery.ts';
import { startPrivateRedis } from './services.ts';

const cleanup = useCleanup();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RECOVERY_MS = 5_000;

/** Cover art generations in a row for one account on one process: the statuses and the slowest answer. */
async function generations(server: ServerProcess, account: AccountFixture, count: number) {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (let i = 0; i < count; i++) {
    const started = Date.now();
    const answer = await request(server.url, 'POST', '/v1/cover-art', {
      token: account.token,
      body: { prompt: `a lighthouse at dusk, take ${i}` },
    });
    slowestMs = Math.max(slowestMs, Date.now() - started);
    statuses.push(answer.status);
  }
  return { statuses, slowestMs };
}

/** A sign-in with a wrong password through the agent tool: the throttle reads and resets its counters. */
async function wrongPassword(server: ServerProcess, email: string) {
  const answer = await request(server.url, 'POST', '/api/mcp', {
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'auth_login', arguments: { username: email, password: 'not the password' } },
    },
  });
  return { status: answer.status, code: answer.body?.error?.data?.code as string | undefined };
}

const lines = (output: string, message: string) =>
  output.split('\n').filter((line) => line.includes(`"msg":"${message}`)).length;

describe('Redis goes away under load', () => {
  it('no 500, limits per process while it is away, shared again after; every event and webhook once', async () => {
    const redis = await startPrivateRedis(cleanup);
    const database = await createTestDatabase('faults_redis');
    cleanup.push(database.drop);
    const receiver = await startHttpsReceiver();
    cleanup.push(receiver.close);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-faults-redis-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: receiver.certFile,
      SANDBOX_STEP_SECONDS: '0.2',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_TIMEOUT_SECONDS: '5',
    };
    const a = await startServerProcess(env);
    cleanup.push(() => a.stop());
    const b = await startServerProcess(env);
    cleanup.push(() => b.stop());
    const orm = await MikroORM.init(ormConfig(database.url, 2));
    cleanup.push(() => orm.close());

    const account = await accountWithToken(orm.em.fork(), { credits: 30 });
    for (const endpoint of [1, 2]) {
      const created = await request(a.url, 'POST', '/v1/webhooks', {
        token: account.token,
        body: { url: receiver.url(`/e${endpoint}`) },
      });
      expect(created.status).toBe(201);
    }
    const assets = await uploadAssets(a.url, account);
    // The subscriber listens on B; the submissions go to A: events cross between processes over Redis.
    const subscriber = new ResumingSubscriber(() => b.url, account.token);
    subscriber.start();
    cleanup.push(() => subscriber.stop());
    const load = [new Submitter(() => a.url, account), new Submitter(() => b.url, account)];
    const running = Promise.all(load.map((s, n) => s.run(`redis-${n}`, assets, 5)));
    await sleep(700);

    await redis.kill();
    for (const server of [a, b]) {
      const status = await waitFor(
        () => request(server.url, 'GET', '/v1/status'),
        (answer) => answer.body.redis === 'unreachable',
        5_000,
      );
      expect(status.body).toMatchObject({ status: 'degraded', database: 'ok', redis: 'unreachable' });
    }
    // Rate-limited routes answer without waiting for Redis: each process counts on its own.
    const artist = await accountWithToken(orm.em.fork());
    const onA = await generations(a, artist, 6);
    const onB = await generations(b, artist, 6);
    expect(onA.statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(onB.statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(Math.max(onA.slowestMs, onB.slowestMs)).toBeLessThan(3_000);
    expect(await wrongPassword(a, account.email)).toEqual({ status: 200, code: 'invalid_credentials' });
    await running;

    await redis.start();
    const back = Date.now();
    // Within RECOVERY_MS of its return, what was published while it was away has crossed over.
    const probe = new Submitter(() => a.url, account);
    await probe.run('redis-probe', assets, 1);
    expect(probe.submissions[0]?.outcome).toBe('accepted');
    const cutoff = Date.now();
    const caughtUp = await consumedUpTo(orm, cutoff, subscriber, {
      dispatcher: false,
      timeoutMs: RECOVERY_MS + 10_000,
    });
    const recoveredInMs = Date.now() - back;
    console.log(`Redis: every event reached the other process ${recoveredInMs} ms after Redis came back`);
    expect(caughtUp).toBe(true);
    expect(recoveredInMs).toBeLessThanOrEqual(RECOVERY_MS);

    // Shared limits again: one account's generations on both processes count together.
    for (const server of [a, b]) {
      await waitFor(
        () => request(server.url, 'GET', '/v1/status'),
        (answer) => answer.body.redis === 'ok',
        5_000,
      );
    }
    const after = await accountWithToken(orm.em.fork());
    const shared = [
      ...(await generations(a, after, 3)).statuses,
      ...(await generations(b, after, 3)).statuses,
    ];
    expect(shared).toEqual([201, 201, 201, 201, 201, 429]);

    const record: TrialRecord = {
      accountIds: [account.accountId],
      submissions: [...load, probe].flatMap((s) => s.submissions),
      checkouts: [],
      received: new Map([[account.accountId, subscriber.cursors]]),
    };
    await waitFor(
      () => trialSettled(orm.em, record),
      (settled) => settled,
      60_000,
    );
    expect(await checkTrial(orm.em, record, receiver.hits)).toEqual([]);
    expect(record.submissions.filter((s) => s.outcome === 'accepted').length).toBeGreaterThan(1);

    // One line when Redis went away and one when it came back, per process, however many requests.
    for (const server of [a, b]) {
      expect(lines(server.log(), 'Redis unreachable')).toBe(1);
      expect(lines(server.log(), 'Redis back')).toBe(1);
      expect(server.log()).not.toMatch(/"level":(50|60)|uncaught exception|unhandled rejection/);
    }
  }, 180_000);
});
