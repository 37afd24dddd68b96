import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { eventsAfter } from '../../src/platform/events/replay.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

// biome-ignore lint/suspicious/noExplicitAny: frames are read loosely
type Frame = { id?: string; type: string; payload?: any };

/** A raw graphql-transport-ws connection: the frames exactly as the server wrote them. */
async function connect(app: TestApp, token: string) {
  const socket = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const raw: string[] = [];
  socket.on('message', (data) => raw.push(String(data)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  const deadline = Date.now() + 5000;
  while (!raw.some((m) => JSON.parse(m).type === 'connection_ack') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  const frames = () => raw.map((m) => JSON.parse(m) as Frame).filter((f) => f.type !== 'connection_ack');
  return {
    socket,
    raw,
    frames,
    subscribe: (id: string, query: string, variables: Record<string, unknown> = {}) =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
    complete: (id: string) => socket.send(JSON.stringify({ id, type: 'complete' })),
    until: async (count: number) => {
      const end = Date.now() + 5000;
      while (frames().length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      return frames();
    },
    close: () => socket.close(),
  };
}

const settle = (ms = 200) => new Promise((r) => setTimeout(r, ms));

describe('graphql-ws fan-out of release events', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const emit = (accountId: string, type: string, n: number) =>
    app.em().transactional((em) => appendEvent(em, { accountId, type, payload: { n } }));

  it('sends each operation its own selection and filter, one frame per event, and stops at complete', async () => {
    const account = await accountWithToken(app.em());
    const one = await connect(app, account.token);
    const two = await connect(app, account.token);
    one.subscribe('all', 'subscription { releaseEvents { type payload } }');
    one.subscribe('other', 'subscription($t: [ReleaseEventType!]) { releaseEvents(types: $t) { cursor } }', {
      t: ['RELEASE_APPROVED'],
    });
    two.subscribe('all', 'subscription { releaseEvents { type payload } }');
    await settle();

    await emit(account.accountId, 'release.status_changed', 1);
    await emit(account.accountId, 'release.approved', 2);
    const first = await one.until(3);
    const second = await two.until(2);

    expect(first.filter((f) => f.id === 'all').map((f) => [f.type, f.payload])).toEqual([
      ['next', { data: { releaseEvents: { type: 'RELEASE_STATUS_CHANGED', payload: '{"n":1}' } } }],
      ['next', { data: { releaseEvents: { type: 'RELEASE_APPROVED', payload: '{"n":2}' } } }],
    ]);
    const others = first.filter((f) => f.id === 'other');
    expect(others).toHaveLength(1);
    expect(Object.keys(others[0]!.payload.data.releaseEvents)).toEqual(['cursor']);
    // The same query on another socket gets the very same payload.
    expect(second.map((f) => f.payload)).toEqual(first.filter((f) => f.id === 'all').map((f) => f.payload));

    one.complete('all');
    await settle(100);
    await emit(account.accountId, 'release.approved', 3);
    await two.until(3);
    await one.until(4);
    await settle(100);
    expect(one.frames().map((f) => f.id)).toEqual(['all', 'all', 'other', 'other']);
    expect(two.frames().map((f) => JSON.parse(f.payload.data.releaseEvents.payload).n)).toEqual([1, 2, 3]);
    one.close();
    two.close();
  });

  it('replays from a cursor while events keep coming: every event once, in cursor order', async () => {
    const account = await accountWithToken(app.em());
    for (const n of [1, 2, 3]) await emit(account.accountId, 'release.status_changed', n);
    const watcher = await connect(app, account.token);
    // Events published while the replay reads the outbox arrive both ways: each must be sent once.
    const emitting = (async () => {
      for (let n = 4; n <= 40; n++) await emit(account.accountId, 'release.status_changed', n);
    })();
    await new Promise((r) => setTimeout(r, 30));
    watcher.subscribe('r', 'subscription { releaseEvents(after: "0") { cursor payload } }');
    await emitting;
    await watcher.until(40);
    // A redelivered event (as a second relay or a Redis hiccup could cause) is not sent again.
    const [again] = await eventsAfter(app.em(), { accountId: account.accountId }, 0, 1);
    await app.services.pubsub.publish([again!]);
    await settle(200);
    const events = watcher.frames().map((f) => f.payload.data.releaseEvents);
    expect(events.map((e: { payload: string }) => JSON.parse(e.payload).n)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const cursors = events.map((e: { cursor: string }) => Number(e.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    watcher.close();
  });

  it('a closed socket is dropped: later events still reach the other subscribers', async () => {
    const account = await accountWithToken(app.em());
    const leaving = await connect(app, account.token);
    const staying = await connect(app, account.token);
    leaving.subscribe('x', 'subscription { releaseEvents { payload } }');
    staying.subscribe('x', 'subscription { releaseEvents { payload } }');
    await settle();
    leaving.socket.terminate();
    await settle(100);
    await emit(account.accountId, 'release.status_changed', 1);
    const frames = await staying.until(1);
    expect(frames.map((f) => JSON.parse(f.payload.data.releaseEvents.payload).n)).toEqual([1]);
    expect(leaving.frames()).toEqual([]);
    staying.close();
  });
});
