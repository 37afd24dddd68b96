/**
 * Event commit → subscription receipt over graphql-ws, against a running server: p50/p99 at 1 and 1,000
 * subscribers, and events/s sustained. Target (delivery issue): p50 ≤ 10 ms.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { appendEvent } from '../src/platform/events/append-event.ts';
import { benchApp } from './support/servers.ts';

const now = () => performance.timeOrigin + performance.now();
const bench = await benchApp('tributary_bench_events');
const { app, orm } = bench;
const { token, accountId } = bench.account;

const commit = (n: number) =>
  orm.em
    .fork()
    .transactional((em) =>
      appendEvent(em, { accountId, type: 'bench.event', payload: { n, committedAt: 0 } }),
    );

async function subscribers(count: number, onEvent: (n: number, at: number) => void) {
  const clients = await Promise.all(
    Array.from({ length: count }, async () => {
      const client = createClient({
        url: `${app.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      await new Promise<void>((resolve) => {
        client.on('connected', () => resolve());
        client.subscribe<{ releaseEvents: { payload: { n: number } } }>(
          { query: 'subscription { releaseEvents { payload } }' },
          {
            next: (v) => onEvent(v.data!.releaseEvents.payload.n, now()),
            error: () => {},
            complete: () => {},
          },
        );
      });
      return client;
    }),
  );
  await new Promise((r) => setTimeout(r, 300));
  return { close: () => Promise.all(clients.map((c) => c.dispose())) };
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

async function latency(subscriberCount: number, events: number) {
  const committedAt = new Map<number, number>();
  const samples: number[] = [];
  const subs = await subscribers(subscriberCount, (n, at) => {
    const sent = committedAt.get(n);
    if (sent !== undefined) samples.push(at - sent);
  });
  // Closed loop: the next event is committed once every subscriber has the previous one, so this
  // measures fan-out latency, not a queue of events committed faster than they can be fanned out.
  for (let n = 0; n < events; n++) {
    const before = samples.length;
    await commit(n);
    committedAt.set(n, now());
    const deadline = Date.now() + 10_000;
    while (samples.length < before + subscriberCount && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
  }
  const expected = subscriberCount * events;
  const deadline = Date.now() + 20_000;
  while (samples.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await subs.close();
  return { ...percentiles(samples), expected };
}

async function throughput(total: number) {
  let received = 0;
  let lastAt = 0;
  const subs = await subscribers(1, (_n, at) => {
    received++;
    lastAt = at;
  });
  const started = now();
  for (let i = 0; i < total; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => commit(i + j)));
  const committed = now();
  const deadline = Date.now() + 30_000;
  while (received < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await subs.close();
  return {
    received,
    commitSeconds: (committed - started) / 1000,
    deliverySeconds: (lastAt - started) / 1000,
  };
}

try {
  const one = await latency(1, 300);
  const many = await latency(1000, 30);
  const rate = await throughput(3000);
  const fmt = (r: { p50: number; p99: number; n: number; expected: number }) =>
    `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.n}/${r.expected} receipts)`;
  console.log(`commit → subscription receipt, 1 subscriber:      ${fmt(one)}  (target p50 ≤ 10 ms)`);
  console.log(`commit → subscription receipt, 1,000 subscribers: ${fmt(many)}`);
  console.log(
    `sustained: ${rate.received} events committed by 10 writers in ${rate.commitSeconds.toFixed(2)} s, all received after ` +
      `${rate.deliverySeconds.toFixed(2)} s → ${(rate.received / rate.deliverySeconds).toFixed(0)} events/s`,
  );
} finally {
  await bench.close();
}
