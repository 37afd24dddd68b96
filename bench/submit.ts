/**
 * The submit write path beside its floor, in one run: a 20-track submit with an Idempotency-Key
 * (POST /v1/releases) at 1 connection and at 20 connections rotating through 50 accounts (each with its
 * own token, files and credits, so the per-account balance lock is not the bound); and the floor, the
 * raw SQL of the same submit issued with `pg` (bench/support/submit-floor.ts) at 1 and 20 connections
 * over the same accounts. BENCH_CPU_PROF=<dir> also writes the server's CPU profile. Targets: p99 ≤ 20 ms at
 * 1 connection; at 20 connections over 50 accounts, ≥ 0.6 of the floor (and 500 submits/s, beyond this
 * machine's floor).
 */
import os from 'node:os';
import type { Request } from 'autocannon';
import pg from 'pg';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import { type Measurement, measureHttp, measureInProcess, printTable } from './support/measure.ts';
import { type BenchAccount, benchAccount, benchApp } from './support/servers.ts';
import { type FloorAccount, submitFloor } from './support/submit-floor.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ACCOUNTS = 50;
const TRACKS = 20;
const CREDITS = 10_000_000;

const bench = await benchApp('tributary_bench_submit', {
  credits: CREDITS,
  env: {
    DATABASE_POOL_MAX: '20',
  },
});
const { app } = bench;

interface Submitter extends FloorAccount, BenchAccount {
  body: string;
}

/** Runs `task` over `items`, `width` at a time (uploads are CPU-heavy for the server). */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width)
    results.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return results;
}

/** Each request goes to the next account with a key never used: every request is a new submission. */
function rotating(submitters: Submitter[], run: string): (request: Request) => Request {
  let sent = 0;
  return (request) => {
    const submitter = submitters[sent % submitters.length]!;
    sent++;
    return {
      ...request,
      headers: {
        ...request.headers,
        authorization: `Bearer ${submitter.token}`,
        'idempotency-key': `${run}-${sent}`,
      },
      body: submitter.body,
    };
  };
}

try {
  const others = await inBatches(
    Array.from({ length: ACCOUNTS - 1 }, (_, i) => i),
    10,
    (i) => benchAccount(bench.orm, `submit-${i}@example.com`, CREDITS),
  );
  const submitters = await inBatches([bench.account, ...others], 4, async (account) => {
    const submission = validSubmission(await uploadAssets(app.url, account), TRACKS);
    return { ...account, submission, body: JSON.stringify(submission) };
  });
  const request = {
    url: `${app.url}/v1/releases`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
  };
  await measureHttp('warm-up', { ...request, setupRequest: rotating(submitters, 'warm') }, 2, 4);

  const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: 20 });
  const floor = submitFloor(pool);
  let floorSubmits = 0;
  let floorStatements = 0;
  const floorSubmit = async () => {
    const submitter = submitters[floorSubmits % submitters.length]!;
    floorSubmits++;
    const client = await pool.connect();
    try {
      floorStatements = await floor(client, submitter, `floor-${floorSubmits}`);
    } finally {
      client.release();
    }
  };
  await measureInProcess('floor warm-up', floorSubmit, 1, 4);

  const load = () => os.loadavg()[0]!.toFixed(2);
  const loads: string[] = [load()];
  const rows: Measurement[] = [];
  rows.push(
    await measureHttp(
      `submit ${TRACKS} tracks, 1 connection`,
      { ...request, setupRequest: rotating(submitters, 'one'), serverPid: app.process.pid },
      SECONDS,
      1,
    ),
  );
  rows.push(await measureInProcess('floor: raw SQL, 1 connection', floorSubmit, SECONDS, 1));
  loads.push(load());
  rows.push(
    await measureHttp(
      `submit ${TRACKS} tracks, 20 connections, ${ACCOUNTS} accounts`,
      { ...request, setupRequest: rotating(submitters, 'twenty'), serverPid: app.process.pid },
      SECONDS,
      20,
    ),
  );
  rows.push(await measureInProcess('floor: raw SQL, 20 connections', floorSubmit, SECONDS, 20));
  loads.push(load());
  await pool.end();

  printTable(rows);
  const [one, floorOne, twenty, floorTwenty] = rows as [Measurement, Measurement, Measurement, Measurement];
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  console.log(
    `\n  load average (1 min) before / between / after: ${loads.join(' / ')} on ${os.cpus().length} cores`,
  );
  console.log(`  floor statements per submit: ${floorStatements}`);
  console.log(
    `  1 connection: p50 ${one.p50.toFixed(1)} ms (floor ${floorOne.p50.toFixed(1)}, ×${ratio(one.p50, floorOne.p50)}), ` +
      `p99 ${one.p99.toFixed(1)} ms (floor ${floorOne.p99.toFixed(1)}, ×${ratio(one.p99, floorOne.p99)}); target p99 ≤ 20 ms`,
  );
  console.log(
    `  20 connections: ${twenty.requestsPerSecond.toFixed(0)} submits/s (floor ${floorTwenty.requestsPerSecond.toFixed(0)}, ` +
      `${ratio(twenty.requestsPerSecond, floorTwenty.requestsPerSecond)} of it); target ≥ 0.6 of the floor`,
  );
} finally {
  await bench.close();
}
