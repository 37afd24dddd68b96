import { randomUUID } from 'node:crypto';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

interface Received {
  cursor: string;
  type: string;
  payload: { n: number };
}

const QUERY = `subscription($after: String, $releaseId: ID) {
  releaseEvents(after: $after, releaseId: $releaseId) { cursor type releaseId payload } }`;

function subscribe(app: TestApp, token: string, variables: Record<string, unknown> = {}) {
  const client: Client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const received: Received[] = [];
  const errors: unknown[] = [];
  const ready = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  const stop = client.subscribe<{ releaseEvents: Omit<Received, 'payload'> & { payload: string } }>(
    { query: QUERY, variables },
    {
      next: (v) =>
        v.data
          ? received.push({ ...v.data.releaseEvents, payload: JSON.parse(v.data.releaseEvents.payload) })
          : errors.push(v.errors),
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  return {
    received,
    errors,
    ready,
    until: async (count: number, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && errors.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      return received;
    },
    close: async () => {
      stop();
      await client.dispose();
    },
  };
}

/** A release event of a release (every release event has one; the stream needs no release row for it). */
async function emit(app: TestApp, accountId: string, n: number, releaseId: string = randomUUID()) {
  await app
    .em()
    .transactional((em) =>
      appendEvent(em, { accountId, releaseId, type: 'release.status_changed', payload: { n } }),
    );
}

describe('release event stream', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('delivers live events, and a subscriber that resumes with its cursor misses nothing', async () => {
    const account = await accountWithToken(app.em());
    const first = subscribe(app, account.token);
    await first.ready;
    await new Promise((r) => setTimeout(r, 50));
    await emit(app, account.accountId, 1);
    await emit(app, account.accountId, 2);
    const seen = await first.until(2);
    expect(seen.map((e) => e.payload.n)).toEqual([1, 2]);
    const cursor = seen[1]!.cursor;
    await first.close();

    for (const n of [3, 4, 5]) await emit(app, account.accountId, n);
    const resumed = subscribe(app, account.token, { after: cursor });
    expect((await resumed.until(3)).map((e) => e.payload.n)).toEqual([3, 4, 5]);
    await emit(app, account.accountId, 6);
    expect((await resumed.until(4)).map((e) => e.payload.n)).toEqual([3, 4, 5, 6]);
    const cursors = resumed.received.map((e) => Number(e.cursor));
    expect([...cursors].sort((a, b) => a - b)).toEqual(cursors);
    await resumed.close();
  });

  it("another account's subscriber sees nothing, and cannot name another account's release", async () => {
    const owner = await accountWithToken(app.em());
    const stranger = await accountWithToken(app.em());
    const watcher = subscribe(app, stranger.token, { after: '0' });
    await watcher.ready;
    await emit(app, owner.accountId, 42);
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.received).toEqual([]);
    await watcher.close();

    const draft = await request(app.url, 'POST', '/v1/drafts', {
      token: owner.token,
      body: { release: { title: 'x' } },
    });
    const prying = subscribe(app, stranger.token, { releaseId: draft.body.releaseId });
    await prying.until(1, 1000);
    expect(JSON.stringify(prying.errors)).toContain('release_not_owned');
    await prying.close();
  });

  it('is commit-order safe: an event whose transaction commits late is still delivered, after the others', async () => {
    const account = await accountWithToken(app.em());
    const watcher = subscribe(app, account.token);
    await watcher.ready;
    await new Promise((r) => setTimeout(r, 50));
    const slow = app.em();
    await slow.begin();
    await appendEvent(slow, {
      accountId: account.accountId,
      releaseId: randomUUID(),
      type: 'release.status_changed',
      payload: { n: 1 },
    });
    await emit(app, account.accountId, 2);
    expect((await watcher.until(1)).map((e) => e.payload.n)).toEqual([2]);
    const cursorOfTwo = watcher.received[0]!.cursor;
    await slow.commit();
    expect((await watcher.until(2)).map((e) => e.payload.n)).toEqual([2, 1]);
    await watcher.close();
    const resumed = subscribe(app, account.token, { after: cursorOfTwo });
    expect((await resumed.until(1)).map((e) => e.payload.n)).toEqual([1]);
    await resumed.close();
  });
});

describe('two instances on one PostgreSQL and one Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    second = await startTestApp({
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: first.services.config.DATABASE_URL!,
    });
  });
  afterAll(async () => {
    await second?.close().catch(() => undefined);
    await first?.close();
  });

  it('a subscriber on the second sees events written through the first', async () => {
    const account = await accountWithToken(first.em());
    const watcher = subscribe(second, account.token);
    await watcher.ready;
    await new Promise((r) => setTimeout(r, 100));
    for (const n of [1, 2, 3]) await emit(first, account.accountId, n);
    expect((await watcher.until(3)).map((e) => e.payload.n)).toEqual([1, 2, 3]);
    await watcher.close();
  });
});
