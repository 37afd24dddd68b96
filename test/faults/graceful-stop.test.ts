import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ormConfig } from '../../src/app-database.ts';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { createTestDatabase } from '../support/database.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { type Answer, type HeldRequest, holdRequest, multipartBody } from '../support/held-request.ts';
import { imageBytes } from '../support/media.ts';
import { type Assets, uploadAssets, validSubmission } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';

/** The exit code of a stop whose grace period ran out (docs/scale.md, "Stopping"). */
const EXIT_GRACE_EXCEEDED = 3;
const ERROR_LINE = /"level":(50|60)|Unhandled|^\s+at /m;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cover-art upload to /api/mcp/upload, streamed (chunked) so that it is still arriving. */
async function heldUpload(url: string, account: AccountFixture, agent: http.Agent): Promise<HeldRequest> {
  const { body, contentType } = multipartBody(
    { type: 'coverArt' },
    { field: 'file', name: 'cover.png', contentType: 'image/png', bytes: await imageBytes(1200, 1200) },
  );
  return holdRequest(url, '/api/mcp/upload', {
    agent,
    body,
    chunked: true,
    firstBytes: 4096,
    headers: { authorization: `Bearer ${account.token}`, 'content-type': contentType },
  });
}

function heldSubmit(url: string, account: AccountFixture, assets: Assets, key: string, agent: http.Agent) {
  return holdRequest(url, '/v1/releases', {
    agent,
    body: Buffer.from(JSON.stringify(validSubmission(assets, 2))),
    headers: {
      authorization: `Bearer ${account.token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
  });
}

function heldQuery(url: string, account: AccountFixture, agent: http.Agent) {
  return holdRequest(url, '/graphql', {
    agent,
    body: Buffer.from(JSON.stringify({ query: '{ me { email } }' })),
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
  });
}

/** A graphql-ws connection, acknowledged; `closed` resolves with how the server closes it. */
async function openSubscriptionSocket(url: string, account: AccountFixture) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () =>
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${account.token}` } }),
      ),
    );
    socket.once('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type === 'connection_ack') resolve();
      else reject(new Error(`graphql-ws answered ${message.type}`));
    });
  });
  return { closed };
}

/** Each request's complete answer, or the error that ended it. */
function settle(requests: HeldRequest[]): Promise<(Answer | Error)[]> {
  return Promise.all(requests.map((r) => r.answer.catch((error: Error) => error)));
}

describe('a server stopped with SIGTERM while requests are in flight', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-stop-'));
  const cleanup: (() => Promise<void>)[] = [];
  let orm: MikroORM;
  let env: Record<string, string>;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

  beforeAll(async () => {
    const database = await createTestDatabase('graceful_stop');
    cleanup.push(database.drop);
    orm = await MikroORM.init(ormConfig(database.url, 4));
    cleanup.push(() => orm.close());
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
  });
  afterAll(async () => {
    agent.destroy();
    for (const step of cleanup.reverse()) await step();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function serve(extra: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await startServerProcess({ ...env, ...extra });
    cleanup.push(server.kill9);
    return server;
  }

  it('answers all 20 requests in flight, closing each connection after, tells WebSocket clients to go, exits 0', async () => {
    const server = await serve();
    const account = await accountWithToken(orm.em.fork(), { credits: 100 });
    const assets = await uploadAssets(server.url, account);

    const webSocket = await openSubscriptionSocket(server.url, account);
    const upload = await heldUpload(server.url, account, agent);
    const submits = Array.from({ length: 10 }, (_, i) =>
      heldSubmit(server.url, account, assets, `stop-${i}`, agent),
    );
    const queries = Array.from({ length: 9 }, () => heldQuery(server.url, account, agent));
    const all = [upload, ...submits, ...queries];
    await Promise.all(all.map((r) => r.sent));
    await sleep(300); // every head has reached the server: 20 requests in flight, their bodies unfinished

    server.child.kill('SIGTERM');
    await sleep(300);
    upload.finish({ parts: 15, everyMs: 100 }); // still arriving 1.5 s into the stop
    for (const r of [...submits, ...queries]) r.finish({ parts: 2, everyMs: 100 });
    const answers = await settle(all);

    const failures = answers.flatMap((a, i) => (a instanceof Error ? [`request ${i}: ${a.message}`] : []));
    expect(failures).toEqual([]);
    const [uploaded, ...rest] = answers as Answer[];
    const submitted = rest.slice(0, 10);
    const queried = rest.slice(10);
    expect(uploaded!.status).toBe(201);
    expect(JSON.parse(uploaded!.body).fileUrl).toMatch(/^\/api\/files\/cover-art\//);
    for (const answer of submitted) expect(answer.status).toBe(201);
    for (const answer of queried) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data.me.email).toBe(account.email);
    }
    // Answered during the drain: the keep-alive connection is closed after each answer.
    for (const answer of answers as Answer[]) expect(answer.headers.connection).toBe('close');

    // Asked to go (so it reconnects to another instance), not cut.
    expect(await webSocket.closed).toEqual({ code: 1001, reason: 'Going away' });
    expect(await server.exited).toBe(0);
    expect(server.log()).not.toMatch(ERROR_LINE);
    expect(server.log()).toContain('"msg":"stopped"');

    // The submits' answers are what the database holds: each answered release committed and paid once.
    const answeredIds = new Set(submitted.map((a) => JSON.parse(a.body).releaseId as string));
    expect(answeredIds.size).toBe(10);
    const em = orm.em.fork();
    const releases = await em.find(Release, { account: account.accountId, status: 'submitted' });
    expect(new Set(releases.map((r) => r.id))).toEqual(answeredIds);
    const debits = await em.find(CreditTransaction, { account: account.accountId, type: 'debit' });
    expect(debits.map((d) => d.ref).sort()).toEqual(releases.map((r) => `release:${r.id}`).sort());
    const balance = (await em.findOneOrFail(Account, { id: account.accountId })).creditBalance;
    const charged = submitted.map((a) => JSON.parse(a.body).creditsCharged as number);
    expect(balance).toBe(100 - charged.reduce((sum, credits) => sum + credits, 0));
    const answeredBalances = submitted.map((a) => JSON.parse(a.body).balanceAfter as number);
    expect(Math.min(...answeredBalances)).toBe(balance);
  }, 120_000);

  it('cuts a request that outlasts the grace period and exits with the documented code', async () => {
    const server = await serve({ SHUTDOWN_GRACE_SECONDS: '1' });
    const account = await accountWithToken(orm.em.fork());
    const upload = await heldUpload(server.url, account, agent);
    const query = heldQuery(server.url, account, agent);
    await Promise.all([upload.sent, query.sent]);
    await sleep(300);

    server.child.kill('SIGTERM');
    query.finish();
    upload.finish({ parts: 40, everyMs: 100 }); // 4 s: well past the 1 s grace
    const [uploaded, queried] = await settle([upload, query]);

    expect(queried).not.toBeInstanceOf(Error);
    expect((queried as Answer).status).toBe(200);
    expect(uploaded).toBeInstanceOf(Error);
    expect(await server.exited).toBe(EXIT_GRACE_EXCEEDED);
    const cutLines = server
      .log()
      .split('\n')
      .filter((line) => line.includes('grace period over'));
    expect(cutLines).toHaveLength(1);
    expect(JSON.parse(cutLines[0]!)).toMatchObject({ requests: 1 });
  }, 60_000);
});
