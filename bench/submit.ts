/**
 * The submit write path beside its floor, in one run: a 20-track submit with an Idempotency-Key
 * (POST /v1/releases) at 1 connection and at 20 connections rotating through 50 accounts (each with its
 * own token, files and credits, so the per-account balance lock is not the bound); and the floor, the
 * raw SQL of the same submit issued with `pg` (bench/support/submit-floor.ts) at 1 and 20 connections
 * over the same accounts. BENCH_CPU_PROF=<dir> also writes the server's CPU profile. Targets: p99 ≤ 20 ms at
 * 1 connection; at 20 connections over 50 accounts, ≥ 0.6 of the floor (and 500 submits/s, beyond this
 * machine's floor). The service and its floor take turns in BENCH_ROUNDS rounds (default 3) at each
 * connection count, so that the machine's drift falls on both alike; each row shows its median round,
 * and the ratio is the median of the rounds' own ratios. Each row also reports where the machine's CPU
 * went per submit: the server's, every PostgreSQL process's, and the bench process's own (the load
 * generator's for the service, the SQL client's for the floor); on a machine whose cores the rows use to
 * the full, the ratio of the two totals is the throughput ratio to expect.
 */
import os from 'node:os';
import type { Request } from 'autocannon';
import pg from 'pg';
import { StoredFile } from '../src/domains/uploads/index.ts';
import { routeConnectionQueries } from '../src/platform/db/connection-query.ts';
import { columnList } from '../src/platform/db/direct-sql.ts';
import { PreparedStatementNames } from '../src/platform/db/prepared-statements.ts';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import {
  type Measurement,
  measureHttp,
  measureInProcess,
  median,
  medianRound,
  printTable,
} from './support/measure.ts';
import { type BenchAccount, benchAccount, benchApp } from './support/servers.ts';
import { type FloorAccount, submitFloor } from './support/submit-floor.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** `BENCH_ROUNDS=1` measures each row in one stretch (default: 3 rounds, the service and the floor in turn). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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
  // The floor's statements run as the service's do: by pg's callback form, prepared from their second use.
  routeConnectionQueries(pool, new PreparedStatementNames());
  const floor = submitFloor(pool, columnList(bench.orm.em, StoredFile));
  let floorSubmits = 0;
  let floorStatements = 0;
  const floorSubmit = async () => {
    const submitter = submitters[floorSubmits % submitters.length]!;
    floorSubmits++;
    floorStatements = await floor(submitter, `floor-${floorSubmits}`);
  };
  await measureInProcess('floor warm-up', floorSubmit, 1, 4);

  const load = () => os.loadavg()[0]!.toFixed(2);
  const loads: string[] = [load()];
  /** The service and the floor at one connection count, taking turns; the median rounds and ratios. */
  const inTurns = async (connections: number, label: string, floorLabel: string) => {
    const service: Measurement[] = [];
    const raw: Measurement[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const setupRequest = rotating(submitters, `c${connections}-r${round}`);
      const options = { ...request, setupRequest, serverPid: app.process.pid, split: true };
      service.push(await measureHttp(label, options, SECONDS / ROUNDS, connections));
      raw.push(
        await measureInProcess(floorLabel, floorSubmit, SECONDS / ROUNDS, connections, { split: true }),
      );
    }
    const ratios = service.map((row, i) => row.requestsPerSecond / raw[i]!.requestsPerSecond);
    const p99s = service.map((row) => row.p99);
    return { rows: [medianRound(service), medianRound(raw)], ratios, ratio: median(ratios), p99s };
  };
  const one = await inTurns(1, `submit ${TRACKS} tracks, 1 connection`, 'floor: raw SQL, 1 connection');
  loads.push(load());
  const twenty = await inTurns(
    20,
    `submit ${TRACKS} tracks, 20 connections, ${ACCOUNTS} accounts`,
    'floor: raw SQL, 20 connections',
  );
  loads.push(load());
  await pool.end();

  printTable([...one.rows, ...twenty.rows]);
  const [service1, floor1] = one.rows as [Measurement, Measurement];
  const [service20, floor20] = twenty.rows as [Measurement, Measurement];
  const times = (x: number, y: number) => (y > 0 ? (x / y).toFixed(2) : 'n/a');
  console.log(
    `\n  load average (1 min) before / between / after: ${loads.join(' / ')} on ${os.cpus().length} cores; ` +
      `${SECONDS} s a row in ${ROUNDS} rounds, the service and its floor in turn (median round shown)`,
  );
  console.log(`  floor statements per submit: ${floorStatements}`);
  console.log(
    `  1 connection: p50 ${service1.p50.toFixed(1)} ms (floor ${floor1.p50.toFixed(1)}, ×${times(service1.p50, floor1.p50)}), ` +
      `p99 ${service1.p99.toFixed(1)} ms (floor ${floor1.p99.toFixed(1)}, ×${times(service1.p99, floor1.p99)}), ` +
      `round by round ${one.p99s.map((p) => p.toFixed(0)).join(' / ')} ms; target p99 ≤ 20 ms`,
  );
  const total = (row: Measurement) =>
    (row.serverCpuMicros ?? 0) + (row.databaseCpuMicros ?? 0) + (row.clientCpuMicros ?? 0);
  const ms = (micros: number | undefined) => ((micros ?? 0) / 1000).toFixed(1);
  console.log(
    `  CPU per submit at 20 connections, all processes: the service ${ms(total(service20))} ms ` +
      `(server ${ms(service20.serverCpuMicros)}, database ${ms(service20.databaseCpuMicros)}, ` +
      `load generator ${ms(service20.clientCpuMicros)}), the floor ${ms(total(floor20))} ms ` +
      `(database ${ms(floor20.databaseCpuMicros)}, client ${ms(floor20.clientCpuMicros)}): ` +
      `on cores both use to the full, the ratio to expect is ${times(total(floor20), total(service20))}`,
  );
  console.log(
    `  20 connections: ${service20.requestsPerSecond.toFixed(0)} submits/s (floor ${floor20.requestsPerSecond.toFixed(0)}); ` +
      `of the floor round by round ${twenty.ratios.map((r) => r.toFixed(2)).join(' / ')}, median ${twenty.ratio.toFixed(2)}; target ≥ 0.6`,
  );
} finally {
  await bench.close();
}
