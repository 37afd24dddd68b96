/**
 * Event commit → subscription receipt over graphql-ws, against a running server: p50/p99 at 1 and 1,000
 * subscribers, and events/s sustained. Target (delivery issue): p50 ≤ 10 ms. Beside it, with the same
 * clients in the same run, the floor: a bare graphql-ws fan-out server (no auth, database or execution)
 * sending a pre-serialised event to every subscriber.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { appendEvent } from '../src/platform/events/append-event.ts';
import { benchApp, startChild } from './support/servers.ts';

const now = () => performance.timeOrigin + performance.now();
const bench = await benchApp('tributary_bench_events');
const { app, orm } = bench;
const { token, accountId } = bench.account;

/** Commits event n; `committing` is called as the COMMIT goes out, the moment its latency counts from. */
const commit = (n: number, committing: () => void = () => {}) =>
  orm.em.fork().transactional(async (em) => {
    await appendEvent(em, { accountId, type: 'release.status_changed', payload: { n, committedAt: 0 } });
    committing();
  });

const bare = await startChild('bench/support/bare-graphql-ws.ts', {}, /listening on (\S+)/);
const publishBare = (n: number) =>
  fetch(bare.url, { method: 'POST', body: JSON.stringify({ payload: { n, committedAt: 0 } }) }).then((r) =>
    r.text(),
  );

interface Target {
  url: string;
  /** Makes event n exist, calling `start` at the moment its latency counts from. */
  fire(n: number, start: () => void): Promise<unknown>;
}

const tributary: Target = {
  url: app.url,
  fire: commit,
};
const floor: Target = {
  url: bare.url,
  fire: (n, start) => {
    start();
    return publishBare(n);
  },
};

/** Warm-up events are numbered below zero; the measured ones from zero. */
async function subscribers(target: Target, count: number, onEvent: (n: number, at: number) => void) {
  let warm = 0;
  const clients = await Promise.all(
    Array.from({ length: count }, async () => {
      const client = createClient({
        url: `${target.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      let seen = false;
      await new Promise<void>((resolve) => {
        client.on('connected', () => resolve());
        client.subscribe<{ releaseEvents: { payload: string } }>(
          { query: 'subscription { releaseEvents { payload } }' },
          {
            next: (v) => {
              const n = (JSON.parse(v.data!.releaseEvents.payload) as { n: number }).n;
              if (n >= 0) onEvent(n, now());
              else if (!seen) {
                seen = true;
                warm++;
              }
            },
            error: () => {},
            complete: () => {},
          },
        );
      });
      return client;
    }),
  );
  // A connected client's subscription may not be registered yet: warm up until every one receives.
  for (let k = 1; warm < count && k <= 100; k++) {
    await target.fire(-k, () => {});
    await new Promise((r) => setTimeout(r, 100));
  }
  if (warm < count) throw new Error(`only ${warm} of ${count} subscriptions became active`);
  return { close: () => Promise.all(clients.map((c) => c.dispose())) };
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

async function latency(target: Target, subscriberCount: number, events: number) {
  const committedAt = new Map<number, number>();
  const samples: number[] = [];
  const subs = await subscribers(target, subscriberCount, (n, at) => {
    const sent = committedAt.get(n);
    if (sent !== undefined) samples.push(at - sent);
  });
  // Closed loop: the next event is committed once every subscriber has the previous one, so this
  // measures fan-out latency, not a queue of events committed faster than they can be fanned out.
  for (let n = 0; n < events; n++) {
    const before = samples.length;
    // Counted from the COMMIT going out, not from the commit resolving here: that would come late,
    // behind this process's handling of the receipts already arriving.
    await target.fire(n, () => committedAt.set(n, now()));
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
  const subs = await subscribers(tributary, 1, (_n, at) => {
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
  const one = await latency(tributary, 1, 300);
  const many = await latency(tributary, 1000, 30);
  const floorOne = await latency(floor, 1, 300);
  const floorMany = await latency(floor, 1000, 30);
  const rate = await throughput(3000);
  const fmt = (r: { p50: number; p99: number; n: number; expected: number }) =>
    `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.n}/${r.expected} receipts)`;
  console.log(`commit → subscription receipt, 1 subscriber:      ${fmt(one)}  (target p50 ≤ 10 ms)`);
  console.log(`commit → subscription receipt, 1,000 subscribers: ${fmt(many)}  (target p50 ≤ 10 ms)`);
  console.log(`floor, bare graphql-ws fan-out, 1 subscriber:     ${fmt(floorOne)}`);
  console.log(`floor, bare graphql-ws fan-out, 1,000 subscribers: ${fmt(floorMany)}`);
  console.log(
    `ratio Tributary / floor, p50 at 1,000 subscribers: ${(many.p50 / floorMany.p50).toFixed(2)}; ` +
      `Tributary's own part: ${(many.p50 - floorMany.p50).toFixed(1)} ms`,
  );
  console.log(
    `sustained: ${rate.received} events committed by 10 writers in ${rate.commitSeconds.toFixed(2)} s, all received after ` +
      `${rate.deliverySeconds.toFixed(2)} s → ${(rate.received / rate.deliverySeconds).toFixed(0)} events/s`,
  );
} finally {
  await bare.stop();
  await bench.close();
}
