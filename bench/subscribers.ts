/**
 * Commit → subscription receipt at 10,000 graphql-ws subscribers over TWO server processes on one
 * PostgreSQL and Redis (the relay publishes once; Redis carries each event to both processes, each fans
 * it out to its half). Target (scale issue): p50 ≤ 20 ms. Beside it, in the same run and with the same
 * light clients, the floor: two bare graphql-ws processes holding the same 10,000 subscriptions, sent
 * the same payload by a POST to each (no auth, database, Redis or GraphQL execution). Rounds alternate
 * Tributary, floor, Tributary, floor, so a neighbour's load falls on both alike.
 *
 * First with 2 subscribers (one per process: the fixed cost of relay, Redis and execution), then 10,000.
 * SUBSCRIBERS (a comma-separated list), EVENTS (per round), ROUNDS and CLIENT_WORKERS tune it; REDIS_URL
 * names the Redis.
 */
import { appendEvent } from '../src/platform/events/append-event.ts';
import { type LightSubscribers, openLightSubscribers } from './support/light-subscribers.ts';
import { benchApp, startChild, startServer } from './support/servers.ts';

const COUNTS = (process.env.SUBSCRIBERS ?? '2,10000').split(',').map(Number);
const EVENTS = Number(process.env.EVENTS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CLIENT_WORKERS = Number(process.env.CLIENT_WORKERS ?? 2);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUERY = 'subscription { releaseEvents { cursor type payload } }';

const now = () => performance.timeOrigin + performance.now();
const env = { REDIS_URL };
const bench = await benchApp('tributary_bench_subscribers', { env });
const second = await startServer(bench.databaseUrl, bench.dataDir, env);
const bare = await Promise.all(
  [0, 1].map(() => startChild('bench/support/bare-graphql-ws.ts', {}, /listening on (\S+)/)),
);
const { orm } = bench;
const { token, accountId } = bench.account;

interface Target {
  name: string;
  urls: string[];
  /** Makes event n exist, calling `start` at the moment its latency counts from. */
  fire(n: number, start: () => void): Promise<unknown>;
}

const tributary: Target = {
  name: 'Tributary',
  urls: [bench.app.url, second.url],
  fire: (n, start) =>
    orm.em.fork().transactional(async (em) => {
      await appendEvent(em, { accountId, type: 'release.status_changed', payload: { n, committedAt: 0 } });
      start(); // as the COMMIT goes out
    }),
};

/** The `releaseEvents` object of a Tributary frame, which the floor sends with its own n. */
let template: { payload: string } & Record<string, unknown> = { payload: '{}' };
const floor: Target = {
  name: 'floor',
  urls: bare.map((b) => b.url),
  fire: (n, start) => {
    const payload = JSON.stringify({ ...JSON.parse(template.payload), n });
    const body = JSON.stringify({ ...template, payload });
    start();
    return Promise.all(bare.map((b) => fetch(b.url, { method: 'POST', body }).then((r) => r.text())));
  },
};

function percentiles(values: Float64Array) {
  const sorted = values.sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

/** One round: open, warm up, then events one at a time (closed loop: the next once all have the last). */
async function round(target: Target, count: number, latencies: number[]): Promise<void> {
  const subscribers: LightSubscribers = await openLightSubscribers({
    urls: target.urls,
    total: count,
    workers: Math.min(CLIENT_WORKERS, count),
    token,
    query: QUERY,
  });
  try {
    await subscribers.warmUp((n) => target.fire(n, () => {}));
    const sample = subscribers.sample();
    if (target === tributary && sample)
      template = (JSON.parse(sample) as { payload: { data: { releaseEvents: typeof template } } }).payload
        .data.releaseEvents;
    for (let n = 0; n < EVENTS; n++) {
      let started = 0;
      await target.fire(n, () => (started = now()));
      for (const times of await subscribers.receipts(n)) for (const at of times) latencies.push(at - started);
    }
  } finally {
    await subscribers.close();
  }
}

try {
  const fmt = (r: ReturnType<typeof percentiles>) =>
    `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.n} receipts)`;
  for (const count of COUNTS) {
    const measured = new Map<Target, number[]>([
      [tributary, []],
      [floor, []],
    ]);
    for (let r = 0; r < ROUNDS; r++)
      for (const [target, latencies] of measured) await round(target, count, latencies);
    const ours = percentiles(Float64Array.from(measured.get(tributary)!));
    const theirs = percentiles(Float64Array.from(measured.get(floor)!));
    const threads = Math.min(CLIENT_WORKERS, count);
    console.log(
      `${count.toLocaleString('en')} subscribers over 2 processes, ${ROUNDS}×${EVENTS} events, ${threads} client threads`,
    );
    console.log(
      `  commit → receipt, Tributary (relay, Redis, execution): ${fmt(ours)}  (target p50 ≤ 20 ms)`,
    );
    console.log(`  floor, bare graphql-ws × 2, POST → receipt:            ${fmt(theirs)}`);
    console.log(
      `  ratio Tributary / floor: p50 ${(ours.p50 / theirs.p50).toFixed(2)}, p99 ${(ours.p99 / theirs.p99).toFixed(2)}`,
    );
  }
} finally {
  await Promise.all(bare.map((b) => b.stop()));
  await second.stop();
  await bench.close();
}
