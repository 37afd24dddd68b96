/**
 * One API process, then two, on one PostgreSQL and one Redis, with the load generator on the same
 * machine spreading its connections evenly over the processes. Two mixes across many accounts:
 *  - reads: GET /v1/me, GET /v1/releases/{id}/status, GET /v1/releases, GET /v1/releases/{id}, and the
 *    agent's tools/call get_release_status, each for a random account;
 *  - submits: POST /v1/releases of 20 tracks with a fresh Idempotency-Key, for a random account out of
 *    ACCOUNTS, so no one account's balance lock is the bound.
 * req/s, p50 and p99 for 1 and 2 processes side by side with the ratio, and where the time went while
 * each ran (CPU of each server, of PostgreSQL, Redis and the load generator; lock waits), with a verdict.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Request } from 'autocannon';
import { migrateToLatest, ormConfig } from '../src/app-database.ts';
import { type AccountFixture, accountWithToken } from '../test/support/factories.ts';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.ts';
import { type BoundSample, startBoundSampler, verdict } from './support/bound-sampler.ts';
import { ADMIN_URL, dropDatabase, freshDatabase } from './support/servers.ts';
import { type MixRequest, measureSpread, type SpreadMeasurement } from './support/spread-load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const POOL = 10;
const TRACKS = 20;

interface Seeded extends AccountFixture {
  releaseId: string;
  submission: string;
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const bearer = (account: Seeded) => ({ authorization: `Bearer ${account.token}` });
const json = (account: Seeded) => ({ ...bearer(account), 'content-type': 'application/json' });

function readMix(accounts: Seeded[]): MixRequest[] {
  const get = (route: (a: Seeded) => string): MixRequest => ({
    method: 'GET',
    setup: (request: Request) => {
      const account = pick(accounts);
      return { ...request, path: route(account), headers: bearer(account) };
    },
  });
  return [
    get(() => '/v1/me'),
    get((a) => `/v1/releases/${a.releaseId}/status`),
    get(() => '/v1/releases?limit=20'),
    get((a) => `/v1/releases/${a.releaseId}`),
    {
      method: 'POST',
      setup: (request: Request) => {
        const account = pick(accounts);
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_release_status', arguments: { releaseId: account.releaseId } },
        });
        return { ...request, path: '/api/mcp', headers: json(account), body };
      },
    },
  ];
}

function submitMix(accounts: Seeded[]): MixRequest[] {
  let sequence = 0;
  const run = randomBytes(4).toString('hex');
  return [
    {
      method: 'POST',
      setup: (request: Request) => {
        const account = pick(accounts);
        sequence++;
        return {
          ...request,
          path: '/v1/releases',
          headers: { ...json(account), 'idempotency-key': `bench-${run}-${sequence}` },
          body: account.submission,
        };
      },
    },
  ];
}

/** Runs `task` `times` times, at most `limit` at once. */
async function repeat(times: number, limit: number, task: () => Promise<void>): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (started < times) {
        started++;
        await task();
      }
    }),
  );
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const body = await response.json();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const databaseUrl = await freshDatabase('tributary_bench_two_processes');
const databaseName = new URL(databaseUrl).pathname.slice(1);
const orm = await MikroORM.init(ormConfig(databaseUrl, 4));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-two-processes-'));
const env = {
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_POOL_MAX: String(POOL),
  STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
};
const running: ServerProcess[] = [];
async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}
async function stop(server: ServerProcess): Promise<void> {
  await server.stop();
  running.splice(running.indexOf(server), 1);
}

interface Row {
  mix: string;
  processes: number;
  result: SpreadMeasurement;
  sample: BoundSample;
}

async function measure(mix: string, servers: ServerProcess[], requests: MixRequest[]): Promise<Row> {
  const urls = servers.map((s) => s.url);
  await measureSpread('warm-up', urls, requests, 2, CONNECTIONS);
  const sampler = await startBoundSampler(
    ADMIN_URL,
    databaseName,
    servers.map((s) => s.child.pid!),
  );
  const result = await measureSpread(mix, urls, requests, SECONDS, CONNECTIONS);
  const sample = await sampler.stop();
  return { mix, processes: servers.length, result, sample };
}

function printRows(rows: Row[]): void {
  const header = [
    'mix',
    'procs',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'per process',
    'Node cores',
    'PG db',
    'PG other',
    'Redis',
    'loadgen',
    'machine',
    'active',
    'lock wait',
  ];
  const lines = rows.map(({ mix, processes, result, sample }) => [
    mix,
    String(processes),
    result.requestsPerSecond.toFixed(0),
    result.p50.toFixed(2),
    result.p99.toFixed(2),
    String(result.errors),
    result.perServer.map((n) => (n / SECONDS).toFixed(0)).join('+'),
    sample.serverCores.map((c) => c.toFixed(2)).join('+'),
    sample.databaseCores.toFixed(2),
    sample.otherPostgresCores.toFixed(2),
    sample.redisCores.toFixed(2),
    sample.loadCores.toFixed(2),
    `${sample.machineCores.toFixed(2)}/${sample.cpuCount}`,
    sample.activeBackends.toFixed(1),
    sample.lockWaiting.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

try {
  await migrateToLatest(orm, databaseUrl);
  const first = await start();
  console.log(
    `${ACCOUNTS} accounts, ${CONNECTIONS} connections spread over the processes, ${SECONDS}s per measurement, ` +
      `DATABASE_POOL_MAX=${POOL} per process; load average before: ${load()}`,
  );
  const accounts: Seeded[] = [];
  const seed = async () => {
    const account = await accountWithToken(orm.em.fork(), { credits: 10_000_000 });
    const assets = await uploadAssets(first.url, account);
    const small = validSubmission(assets, 1);
    const created = (await expectOk(
      await fetch(`${first.url}/v1/releases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(small),
      }),
      'seed release',
    )) as { releaseId: string };
    accounts.push({
      ...account,
      releaseId: created.releaseId,
      submission: JSON.stringify(validSubmission(assets, TRACKS)),
    });
  };
  // The first alone: it makes the audio fixture the others reuse.
  await seed();
  await repeat(ACCOUNTS - 1, 2, seed);
  if (new Set(accounts.map((a) => a.accountId)).size !== ACCOUNTS)
    throw new Error('accounts were not seeded');

  const rows: Row[] = [];
  rows.push(await measure('read mix', [first], readMix(accounts)));
  let second = await start();
  rows.push(await measure('read mix', [first, second], readMix(accounts)));
  await stop(second);
  rows.push(await measure(`submit ${TRACKS} tracks`, [first], submitMix(accounts)));
  second = await start();
  rows.push(await measure(`submit ${TRACKS} tracks`, [first, second], submitMix(accounts)));

  console.log(
    `\nThe machine has ${rows[0]!.sample.cpuCount} cores: the server processes, the load generator, PostgreSQL ` +
      'and Redis all share them, so the second process adds no core of its own. Cores are CPU time per second ' +
      'of wall time; "PG db" is the bench database\'s backends, "PG other" the rest of PostgreSQL (WAL writer, ' +
      'other databases); "active"/"lock wait" are mean backends running a statement / waiting on a lock.\n',
  );
  printRows(rows);
  console.log('');
  for (const mix of ['read mix', `submit ${TRACKS} tracks`]) {
    const [one, two] = rows.filter((r) => r.mix === mix) as [Row, Row];
    console.log(
      `${mix}: 2 processes / 1 process throughput ${(two.result.requestsPerSecond / one.result.requestsPerSecond).toFixed(2)}×, ` +
        `p99 ${one.result.p99.toFixed(1)} → ${two.result.p99.toFixed(1)} ms`,
    );
    for (const row of [one, two]) {
      const waits = row.sample.topWaits.map((w) => `${w.event} ${(w.share * 100).toFixed(0)}%`).join(', ');
      console.log(`  ${row.processes} process(es), bound: ${verdict(row.sample, POOL)}`);
      console.log(`    active backends were: ${waits || 'none sampled'}`);
      if (row.sample.lockHolder)
        console.log(`    the lock's holder was most often: ${row.sample.lockHolder}`);
    }
  }
  console.log(`\nload average after: ${load()}`);
} finally {
  for (const server of [...running]) await server.stop();
  await orm.close();
  await dropDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
}
