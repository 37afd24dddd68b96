import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { until } from '../support/wait.ts';

const QUERY = 'subscription { releaseEvents { cursor type releaseId payload } }';

interface Frame {
  id: string;
  type: string;
  payload: { data?: { releaseEvents: { cursor: string; type: string; payload: string } } };
}

/** A raw graphql-transport-ws connection, so the frames the server writes are seen byte for byte. */
async function rawSubscriber(app: TestApp, token: string, ids: string[], query = QUERY) {
  const socket = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const frames: { raw: string; frame: Frame }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })),
    );
    socket.on('message', (data: Buffer) => {
      const raw = data.toString('utf8');
      const frame = JSON.parse(raw) as Frame;
      if (frame.type === 'connection_ack') {
        for (const id of ids) socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
        resolve();
      } else frames.push({ raw, frame });
    });
  });
  return {
    frames,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
}

/** Every event here is of one release (the stream needs no release row for it). */
const RELEASE_ID = randomUUID();

async function emit(app: TestApp, accountId: string, payload: Record<string, unknown>) {
  await app
    .em()
    .transactional((em) =>
      appendEvent(em, { accountId, releaseId: RELEASE_ID, type: 'release.status_changed', payload }),
    );
}

describe('graphql-ws fan-out of one event to many subscribers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('sends every subscriber the identical payload under its own subscription id', async () => {
    const owner = await accountWithToken(app.em());
    const stranger = await accountWithToken(app.em());
    // Ids that JSON must escape, and several operations on one socket.
    const sockets = await Promise.all(
      Array.from({ length: 40 }, (_, s) =>
        rawSubscriber(app, owner.token, [`s${s}`, `"quoted" \\ é ${s}`, `s${s}-🎵`]),
      ),
    );
    const outsider = await rawSubscriber(app, stranger.token, ['outsider']);
    const subscriptions = sockets.length * 3;
    const total = () => sockets.reduce((sum, s) => sum + s.frames.length, 0);

    // Warm up until every subscription is live, then the measured events: a payload with multi-byte
    // text, and one above 65,535 bytes (the longest frame-header form).
    for (let k = 1; total() < subscriptions && k < 50; k++) {
      for (const s of sockets) s.frames.length = 0;
      await emit(app, owner.accountId, { n: -k });
      await until(() => total() >= subscriptions, 300);
    }
    for (const s of sockets) s.frames.length = 0;
    const events = [
      { n: 1, title: 'Sigur Rós — Ágætis byrjun 🎵' },
      { n: 2, notes: 'x'.repeat(70_000) },
    ];
    for (const payload of events) await emit(app, owner.accountId, payload);
    await until(() => total() === subscriptions * events.length, 10_000);

    const payloads = new Set<string>();
    for (const [s, socket] of sockets.entries()) {
      expect(socket.frames.map((f) => f.frame.type)).toEqual(Array(6).fill('next'));
      const byId = new Map<string, Frame[]>();
      for (const { frame } of socket.frames) byId.set(frame.id, [...(byId.get(frame.id) ?? []), frame]);
      expect([...byId.keys()].sort()).toEqual([`s${s}`, `"quoted" \\ é ${s}`, `s${s}-🎵`].sort());
      for (const frames of byId.values()) {
        expect(frames.map((f) => JSON.parse(f.payload.data!.releaseEvents.payload))).toEqual(events);
        for (const f of frames) payloads.add(JSON.stringify(f.payload));
      }
    }
    // One payload per event, byte for byte the same for everyone.
    expect(payloads.size).toBe(events.length);
    const first = sockets[0]!.frames[0]!.frame.payload.data!.releaseEvents;
    expect(first).toEqual({
      cursor: expect.stringMatching(/^\d+$/),
      type: 'RELEASE_STATUS_CHANGED',
      releaseId: RELEASE_ID,
      payload: JSON.stringify(events[0]),
    });
    expect(outsider.frames.filter((f) => f.frame.type === 'next')).toEqual([]);

    // The protocol still belongs to graphql-ws: a completed operation gets nothing more, the others do.
    sockets[0]!.send({ id: 's0', type: 'complete' });
    sockets[0]!.frames.length = 0;
    await new Promise((r) => setTimeout(r, 100));
    await emit(app, owner.accountId, { n: 3 });
    await until(() => sockets[0]!.frames.length >= 2, 10_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(sockets[0]!.frames.map((f) => f.frame.id).sort()).toEqual(['"quoted" \\ é 0', 's0-🎵']);
    for (const socket of [...sockets, outsider]) socket.close();
  });
});
