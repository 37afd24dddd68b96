/**
 * What the metrics add to one request, in nanoseconds, side by side with the floor (reading the clock,
 * which a request does anyway): the observation of a bound series (one histogram observation and one
 * counter increment), the same through a GraphQL name lookup, and an error count. Tight loops,
 * interleaved in 7 rounds, median round reported; then a scrape of a registry holding every REST series.
 */

import { restRoutes } from '../facades/rest/routes/index.ts';
import { Metrics } from '../src/platform/metrics/index.ts';
import { median } from './support/measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1_000_000);
const ROUNDS = 7;

const metrics = new Metrics();
const bound = metrics.request('rest', 'getProfile');
for (const route of restRoutes) metrics.request('rest', route.operationId);
metrics.graphqlOperation('ReleaseStatus');
let sink = 0;

const loops: Record<string, () => void> = {
  'floor: performance.now()': () => {
    for (let i = 0; i < ITERATIONS; i++) sink += performance.now();
  },
  'bound series: observe + inc': () => {
    for (let i = 0; i < ITERATIONS; i++) bound.observe(performance.now(), false);
  },
  'GraphQL name lookup + observe + inc': () => {
    for (let i = 0; i < ITERATIONS; i++)
      metrics.graphqlOperation('ReleaseStatus').observe(performance.now(), false);
  },
  'error count (surface, type)': () => {
    for (let i = 0; i < ITERATIONS; i++) metrics.countError('rest', 'not_found_error');
  },
};

const rounds = new Map<string, number[]>(Object.keys(loops).map((name) => [name, []]));
for (const loop of Object.values(loops)) loop(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, loop] of Object.entries(loops)) {
    const started = performance.now();
    loop();
    rounds.get(name)!.push(((performance.now() - started) * 1e6) / ITERATIONS);
  }
}
console.log(`-- ns per call, median of ${ROUNDS} interleaved rounds of ${ITERATIONS} --`);
const floor = median(rounds.get('floor: performance.now()')!);
for (const [name, values] of rounds) {
  const ns = median(values);
  console.log(
    `${name.padEnd(40)} ${ns.toFixed(0).padStart(6)} ns   (+${(ns - floor).toFixed(0)} over the floor)`,
  );
}

const scrapes: number[] = [];
for (let i = 0; i < 20; i++) {
  const started = performance.now();
  await metrics.render();
  scrapes.push(performance.now() - started);
}
console.log(
  `scrape of ${restRoutes.length + 2} operations' series: ${median(scrapes).toFixed(2)} ms (median of 20)`,
);
if (sink === -1) console.log(sink);
