import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { VERIFIED_TOKEN_TTL_MS } from '../../src/domains/accounts/verified-tokens.ts';
import { Submitter } from '../durability/actors.ts';
import { checkTrial, type TrialRecord, trialSettled } from '../durability/checks.ts';
import { ResumingSubscriber } from '../durability/subscriber.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { startHttpsReceiver } from '../support/https-receiver.ts';
import { useCleanup } from '../support/process-world.ts';
import { uploadAssets } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { waitFor } from '../support/wait.ts';
import { isUnavailable, Prober, unexcused } from './probes.ts';
import { consumedUpTo } from './recovery.ts';
import { startPrivatePostgres } from './services.ts';

const cleanup = useCleanup();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long after the database is back every event committed before must have reached every consumer. */
const RECOVERY_MS = 5_000;

describe('the database restarts under load', () => {
  it('a fast restart and a crash: 503s while it is away, every event and webhook once after, no debit twice', async () => {
    const postgres = await startPrivatePostgres(cleanup);
    const receiver = await startHttpsReceiver();
    cleanup.push(receiver.close);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-faults-db-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const server: ServerProcess = await startServerProcess({
      DATABASE_URL: postgres.url,
      DATA_DIR: dataDir,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: receiver.certFile,
      SANDBOX_STEP_SECONDS: '0.2',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_TIMEOUT_SECONDS: '5',
    });
    cleanup.push(() => server.stop());
    const url = () => server.url;
    const orm = await MikroORM.init(ormConfig(postgres.url, 2));
    cleanup.push(() => orm.close());

    const account = await accountWithToken(orm.em.fork(), { credits: 60 });
    for (const endpoint of [1, 2]) {
      const created = await request(url(), 'POST', '/v1/webhooks', {
        token: account.token,
        body: { url: receiver.url(`/e${endpoint}`) },
      });
      expect(created.status).toBe(201);
    }
    const assets = await uploadAssets(url(), account);
    const subscriber = new ResumingSubscriber(url, account.token);
    subscriber.start();
    cleanup.push(() => subscriber.stop());
    const prober = new Prober(url, account.token);
    prober.start();
    cleanup.push(() => prober.stop());
    const submitters: Submitter[] = [];

    for (const outage of ['fast restart', 'crash'] as const) {
      // Keyed submissions run into the outage; the first one without an answer is retried after.
      const load = [new Submitter(url, account), new Submitter(url, account)];
      submitters.push(...load);
      const running = Promise.all(load.map((s, n) => s.run(`${outage}-${n}`, assets, 6)));
      await sleep(700);
      const wentAway = Date.now();
      if (outage === 'fast restart') await postgres.stop();
      else await postgres.kill();

      // While it is away: the status says so, and each surface answers 503 in its own words.
      const status = await waitFor(
        () => request(url(), 'GET', '/v1/status'),
        (answer) => answer.body.database === 'unreachable',
        5_000,
      );
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ status: 'degraded', database: 'unreachable' });
      // A token verified just before the outage is trusted for VERIFIED_TOKEN_TTL_MS (and a profile read
      // as long): the surfaces reach the database, and refuse, once that has run out.
      const refused = await waitFor(
        async () =>
          new Set(prober.seen.filter((s) => s.at > wentAway && isUnavailable(s)).map((s) => s.surface)),
        (surfaces) => surfaces.size === 3,
        VERIFIED_TOKEN_TTL_MS + 5_000,
      );
      expect([...refused].sort()).toEqual(['agent', 'graphql', 'rest']);
      await sleep(1_000);

      await postgres.start();
      const back = Date.now();
      const record: TrialRecord = {
        accountIds: [account.accountId],
        submissions: [],
        checkouts: [],
        received: new Map([[account.accountId, subscriber.cursors]]),
      };
      // A submission as soon as the API takes it again; then every event committed so far (before
      // the outage, and since the return) is published, and has reached the subscriber and the webhook
      // dispatcher, within RECOVERY_MS of the return.
      const probe = new Submitter(url, account);
      submitters.push(probe);
      await probe.run(`${outage}-probe`, assets, 1);
      while (probe.submissions[0]?.outcome === 'unknown' && Date.now() - back < RECOVERY_MS)
        await probe.retryUnknown();
      expect(probe.submissions[0]?.outcome).toBe('accepted');
      const cutoff = Date.now();
      const caughtUp = await consumedUpTo(orm, cutoff, subscriber, {
        dispatcher: true,
        timeoutMs: RECOVERY_MS + 10_000,
      });
      const recoveredInMs = Date.now() - back;
      console.log(`${outage}: every event consumed ${recoveredInMs} ms after the database came back`);
      expect(caughtUp, `${outage}: events committed before the return reached every consumer`).toBe(true);
      expect(recoveredInMs, `${outage}: recovery took ${recoveredInMs} ms`).toBeLessThanOrEqual(RECOVERY_MS);
      // The status is pinged every 2 seconds: it says so within one more ping.
      const statusBack = await waitFor(
        () => request(url(), 'GET', '/v1/status'),
        (answer) => answer.body.database === 'ok',
        3_000,
      );
      expect(statusBack.body).toMatchObject({ status: 'ok', database: 'ok' });

      await running;
      for (const submitter of load) await submitter.retryUnknown();
      record.submissions = submitters.flatMap((s) => s.submissions);
      await waitFor(
        () => trialSettled(orm.em, record),
        (settled) => settled,
        60_000,
      );
      // Nothing lost, nothing twice: every accepted key debited once, every event published once and
      // received once by the subscriber in order, one webhook delivery per endpoint and event.
      expect(await checkTrial(orm.em, record, receiver.hits)).toEqual([]);
      expect(record.submissions.some((s) => s.outcome === 'accepted')).toBe(true);
    }

    await prober.stop();
    // The outage showed as 503s in each surface's vocabulary, and never as a 500 or a dropped answer.
    expect(prober.seen.filter(unexcused)).toEqual([]);
    expect(prober.seen.filter(isUnavailable).length).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    // The outages are logged as such, once each way; no worker logged them as errors of its own.
    const log = server.log().split('\n');
    expect(log.filter((line) => line.includes('"msg":"the database unreachable')).length).toBe(2);
    expect(log.filter((line) => line.includes('"msg":"the database back')).length).toBe(2);
    expect(log.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    expect(receiver.hits.length).toBeGreaterThan(0);
  }, 180_000);
});
