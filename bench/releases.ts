/**
 * Submit of a 20-track release: p50/p99 and submits/s at 1 and 10 connections; quote req/s; both beside
 * GET /v1/me, in one run against one server. Target: 20-track submit p99 ≤ 50 ms at 1 connection.
 */
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import { measureHttp, printTable } from './support/measure.ts';
import { benchApp } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const bench = await benchApp('tributary_bench_releases', {
  credits: 10_000_000,
  env: { DATABASE_POOL_MAX: '20' },
});
const { app, account } = bench;
const { token } = account;

try {
  const assets = await uploadAssets(app.url, account);
  const submission = JSON.stringify(validSubmission(assets, 20));
  const quote = JSON.stringify({ tracks: validSubmission(assets, 20).tracks });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  await measureHttp(
    'warm-up',
    { url: `${app.url}/v1/releases`, method: 'POST', headers: auth, body: submission },
    2,
    2,
  );
  const rows = [
    await measureHttp(
      'submit 20 tracks, 1 connection',
      { url: `${app.url}/v1/releases`, method: 'POST', headers: auth, body: submission },
      SECONDS,
      1,
    ),
    await measureHttp(
      'submit 20 tracks, 10 connections',
      { url: `${app.url}/v1/releases`, method: 'POST', headers: auth, body: submission },
      SECONDS,
      10,
    ),
    await measureHttp(
      'quote 20 tracks, 10 connections',
      { url: `${app.url}/v1/releases/quote`, method: 'POST', headers: auth, body: quote },
      SECONDS,
      10,
    ),
    await measureHttp('GET /v1/me, 10 connections', { url: `${app.url}/v1/me`, headers: auth }, SECONDS, 10),
  ];
  printTable(rows);
  const [single, ten, quoted, me] = rows as [
    (typeof rows)[0],
    (typeof rows)[0],
    (typeof rows)[0],
    (typeof rows)[0],
  ];
  console.log(`\n  20-track submit p99 at 1 connection: ${single.p99.toFixed(1)} ms (target ≤ 50 ms)`);
  console.log(
    `  submits/s: ${single.requestsPerSecond.toFixed(0)} (1 connection), ${ten.requestsPerSecond.toFixed(0)} (10 connections)`,
  );
  console.log(
    `  quote / GET /v1/me throughput: ${(quoted.requestsPerSecond / me.requestsPerSecond).toFixed(3)}`,
  );
  console.log(
    `  submit (10 conn) / GET /v1/me throughput: ${(ten.requestsPerSecond / me.requestsPerSecond).toFixed(3)}`,
  );
} finally {
  await bench.close();
}
