/**
 * Event commit → webhook receipt at an https receiver on loopback, with 1 and 5 endpoints, and
 * deliveries/s sustained, in one run against the real server. Beside them, the delivery path alone
 * (20,000 queued deliveries drained by the one server process) and its floor: a bare https client
 * loop in a process of its own posting signed bodies to the same receiver, keep-alive, at the same
 * concurrency, no database. Targets: p50 ≤ 25 ms, p99 ≤ 100 ms, delivery path ≥ 8,000/s.
 * BENCH_CPU_PROF=<dir> also writes the server's CPU profile; WEBHOOK_BENCH_DRAIN_ONLY=1 runs only the
 * floor and the drain (so that profile is of the delivery path).
 */
import { DEFAULT_WEBHOOK_CONCURRENCY } from '../src/domains/webhooks/sender.ts';
import { appendEvent } from '../src/platform/events/append-event.ts';
import { startHttpsReceiver } from '../test/support/https-receiver.ts';
import { type BoundSample, startBoundSampler, verdict } from './support/bound-sampler.ts';
import { ADMIN_URL, benchApp, startChild } from './support/servers.ts';

const DRAINED = Number(process.env.WEBHOOK_BENCH_DELIVERIES ?? 20_000);
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? DEFAULT_WEBHOOK_CONCURRENCY);
const DRAIN_ONLY = process.env.WEBHOOK_BENCH_DRAIN_ONLY === '1';

const now = () => performance.timeOrigin + performance.now();
const receiver = await startHttpsReceiver();
const bench = await benchApp('tributary_bench_webhooks', {
  env: {
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NODE_EXTRA_CA_CERTS: receiver.certFile,
    LOG_LEVEL: 'info',
  },
});
const { app, orm } = bench;
const { token, accountId } = bench.account;

async function addEndpoints(count: number) {
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${app.url}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url(`/hook-${Math.random().toString(36).slice(2)}`) }),
    });
    if (response.status !== 201) throw new Error(`endpoint: ${response.status} ${await response.text()}`);
  }
}

let sequence = 0;
const commit = (n: number) =>
  orm.em.fork().transactional((em) =>
    appendEvent(em, {
      accountId,
      type: 'release.status_changed',
      payload: { event: 'release.status_changed', n },
    }),
  );
const hitsFor = (n: number) => receiver.hits.filter((h) => JSON.parse(h.body).n === n);

async function latency(endpoints: number, events: number) {
  const samples: number[] = [];
  for (let i = 0; i < events; i++) {
    const n = sequence++;
    await commit(n);
    const committedAt = now();
    const deadline = Date.now() + 10_000;
    while (hitsFor(n).length < endpoints && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    for (const hit of hitsFor(n)) samples.push(hit.at - committedAt);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), n: samples.length };
}

async function throughput(endpoints: number, events: number) {
  const first = sequence;
  const before = receiver.hits.length;
  const started = now();
  for (let i = 0; i < events; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, events - i) }, () => commit(sequence++)));
  }
  const expected = events * endpoints;
  const deadline = Date.now() + 120_000;
  while (receiver.hits.length - before < expected && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  const received = receiver.hits.slice(before).filter((h) => JSON.parse(h.body).n >= first);
  const seconds = ((received.at(-1)?.at ?? now()) - started) / 1000;
  return { deliveries: received.length, expected, seconds, perSecond: received.length / seconds };
}

interface Rate {
  deliveries: number;
  expected: number;
  /** First to last receipt at the receiver. */
  seconds: number;
  perSecond: number;
}

/** Receipts since `before`, timed at the receiver (first to last), the same for the floor and the path. */
async function receipts(before: number, expected: number): Promise<Rate> {
  const deadline = Date.now() + 120_000;
  while (receiver.hits.length - before < expected && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  const hits = receiver.hits.slice(before);
  const seconds = ((hits.at(-1)?.at ?? 0) - (hits[0]?.at ?? 0)) / 1000;
  return { deliveries: hits.length, expected, seconds, perSecond: (hits.length - 1) / seconds };
}

/** The floor: a bare https client loop (bench/support/bare-webhook-sender.ts) posting to the receiver. */
async function floor(count: number): Promise<Rate> {
  const before = receiver.hits.length;
  await startChild(
    'bench/support/bare-webhook-sender.ts',
    {
      TARGET_URL: receiver.url('/floor'),
      COUNT: String(count),
      CONCURRENCY: String(CONCURRENCY),
      NODE_EXTRA_CA_CERTS: receiver.certFile,
    },
    /result=(\{.*\})\n/,
  );
  return receipts(before, count);
}

/** The delivery path alone: deliveries queued in bulk (as many dispatchers would), drained to the receiver. */
async function drain(count: number): Promise<Rate & { sample: BoundSample }> {
  const before = receiver.hits.length;
  const base = 1_000_000 + sequence;
  sequence += count;
  await orm.em.fork().execute(
    `insert into webhook_deliveries (id, endpoint_id, event_id, event_cursor, event_type, payload, payload_hash,
       status, attempts, next_attempt_at, created_at)
     select gen_random_uuid(), e.id, ? + g, ? + g, 'release.status_changed',
            jsonb_build_object('event', 'release.status_changed', 'n', ? + g), md5((? + g)::text) || md5('x'),
            'pending', 0, now(), now()
       from generate_series(0, ? - 1) g
       cross join (select id from webhook_endpoints where account_id = ? limit 1) e`,
    [base, base, base, base, count, accountId],
  );
  // A deployed database's autovacuum keeps the table's statistics; on a machine where it is off (CI
  // settings) a never-analyzed table makes the claim sort every due row instead of reading the partial
  // index (WEBHOOK_BENCH_NO_ANALYZE=1 measures that case).
  if (process.env.WEBHOOK_BENCH_NO_ANALYZE !== '1') await orm.em.fork().execute('analyze webhook_deliveries');
  // From the commit of the queued rows to the last receipt: where each process's CPU went meanwhile.
  const sampler = await startBoundSampler(ADMIN_URL, new URL(bench.databaseUrl).pathname.slice(1), [
    bench.app.process.pid!,
  ]);
  const received = await receipts(before, count);
  return { ...received, sample: await sampler.stop() };
}

const fmt = (r: { p50: number; p99: number; n: number }) =>
  `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.n} receipts)`;
const rate = (r: Rate) =>
  `${r.deliveries}/${r.expected} deliveries in ${r.seconds.toFixed(2)} s → ${r.perSecond.toFixed(0)}/s`;

/** Commit → receipt latency and the sustained end-to-end rate with one endpoint. */
async function endToEnd() {
  await latency(1, 10); // warm-up
  const one = await latency(1, 200);
  const oneRate = await throughput(1, 2000);
  console.log(`commit → webhook receipt, 1 endpoint:  ${fmt(one)}  (targets p50 ≤ 25 ms, p99 ≤ 100 ms)`);
  console.log(`sustained end to end, 1 endpoint:  ${rate(oneRate)}`);
}

try {
  await addEndpoints(1);
  if (!DRAIN_ONLY) await endToEnd();
  await floor(2000); // warm-up
  const floorBefore = await floor(DRAINED);
  const drained = await drain(DRAINED);
  const floorAfter = await floor(DRAINED);
  const floorRate = (floorBefore.perSecond + floorAfter.perSecond) / 2;
  console.log(
    `floor, bare https client loop (${CONCURRENCY} in flight, keep-alive, signed bodies, no database): ` +
      `${rate(floorBefore)}; again after the path: ${rate(floorAfter)}`,
  );
  console.log(
    `delivery path alone (${DRAINED} queued deliveries drained by one server process): ${rate(drained)}  ` +
      `(target ≥ 8,000/s) = ${((100 * drained.perSecond) / floorRate).toFixed(0)}% of the floor's mean`,
  );
  console.log('  (floor and path timed alike: first to last receipt at the receiver)');
  const { sample } = drained;
  console.log(`  during the drain: ${verdict(sample, 1)} (the load generator is the receiver)`);
  console.log(
    `  PostgreSQL backends active ${sample.activeBackends.toFixed(2)} on average; waits: ` +
      sample.topWaits.map((w) => `${w.event} ${(100 * w.share).toFixed(0)}%`).join(', '),
  );
  if (!DRAIN_ONLY) {
    await addEndpoints(4);
    const five = await latency(5, 100);
    const fiveRate = await throughput(5, 1000);
    console.log(`commit → webhook receipt, 5 endpoints: ${fmt(five)}`);
    console.log(`sustained end to end, 5 endpoints: ${rate(fiveRate)}`);
    console.log(
      '  (end-to-end rates include committing the events, from 20 writers in this process, and dispatching them)',
    );
  }
} finally {
  await bench.close();
  await receiver.close();
}
