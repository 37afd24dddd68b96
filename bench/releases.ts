/**
 * Submit of a 20-track release: p50/p99 and submits/s at 1 and 10 connections; quote req/s; both beside
 * GET /v1/me, in one run against one server. Target: 20-track submit p99 ≤ 50 ms at 1 connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { createAccount } from '../src/domains/accounts/create-account.ts';
import { issueToken } from '../src/domains/accounts/issue-token.ts';
import { grantCredits } from '../src/domains/credits/grant-credits.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { ormConfig } from '../src/platform/db/orm.ts';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import { measureHttp, printTable } from './support/measure.ts';
import { freePort, freshDatabase, startChild } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const databaseUrl = await freshDatabase('tributary_bench_releases');
const orm = await MikroORM.init(ormConfig(databaseUrl, 4));
await migrateToLatest(orm, databaseUrl);
const account = await createAccount(orm.em.fork(), { email: 'bench-releases@example.com' });
const { token, record } = await issueToken(orm.em.fork(), {
  accountId: account.id,
  name: 'bench',
  scopes: ['svc:mcp'],
  expires: 'none',
});
await grantCredits(orm.em.fork(), { accountId: account.id, credits: 10_000_000 });
await orm.close();

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-releases-'));
const port = await freePort();
const app = await startChild(
  'facades/main.ts',
  {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_POOL_MAX: '20',
  },
  /"url":"([^"]+)"/,
);

try {
  const fixture = { accountId: account.id, email: account.email, token, tokenId: record.id };
  const assets = await uploadAssets(app.url, fixture);
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
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
