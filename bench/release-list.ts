/**
 * Listing 50 releases with their tracks, artists and cover art over GraphQL, before and after DataLoader,
 * side by side in one run on one database: SQL statements per request (counted in-process at the
 * driver) and req/s over HTTP (two servers, GRAPHQL_BATCH_LOADS=false runs the per-node loads).
 */
import pg from 'pg';
import { authenticate } from '../schema/context.ts';
import { prepareOperation, runOperation } from '../schema/execute.ts';
import { buildAppServices } from '../schema/services.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import { measureHttp, printTable } from './support/measure.ts';
import { benchApp, freePort, startChild } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RELEASES = 50;

const LIST = `{ releases(limit: ${RELEASES}) {
  id title
  tracks { position title isrc credits }
  artists { name position }
  coverArt { fileUrl width }
} }`;

/** Statements the driver sends while `work` runs (nothing else runs meanwhile in this process). */
async function countStatements(work: () => Promise<void>): Promise<number> {
  let count = 0;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}

const bench = await benchApp('tributary_bench_release_list', { credits: 10_000 });
const { app, account, orm } = bench;
const port = await freePort();
const perNode = await startChild(
  'facades/main.ts',
  {
    DATABASE_URL: bench.databaseUrl,
    DATA_DIR: bench.dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GRAPHQL_BATCH_LOADS: 'false',
  },
  /"url":"([^"]+)"/,
);

try {
  const assets = await uploadAssets(app.url, account);
  for (let i = 0; i < RELEASES; i++) {
    const body = validSubmission(assets, 2);
    body.release.title = `Release ${i}`;
    const answer = await fetch(`${app.url}/v1/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 201) throw new Error(`seeding failed: ${await answer.text()}`);
  }

  const statements: Record<string, number> = {};
  for (const [mode, batch] of [
    ['DataLoader', 'true'],
    ['per node', 'false'],
  ] as const) {
    const services = await buildAppServices(
      loadConfig({ DATABASE_URL: bench.databaseUrl, DATA_DIR: bench.dataDir, GRAPHQL_BATCH_LOADS: batch }),
      orm,
      createLogger('silent'),
      'bench',
    );
    const prepared = prepareOperation(LIST);
    statements[mode] = await countStatements(async () => {
      const principal = await authenticate(services, account.token);
      const result = await runOperation(services, prepared, { principal, channel: 'graphql' });
      if (result.errors.length > 0) throw result.errors[0];
      const listed = (result.data?.releases as unknown[] | undefined)?.length;
      if (listed !== RELEASES) throw new Error(`listed ${listed} releases, not ${RELEASES}`);
    });
  }

  const request = (url: string) => ({
    url: `${url}/graphql`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: LIST }),
  });
  await measureHttp('warm-up', request(app.url), 2, CONNECTIONS);
  await measureHttp('warm-up', request(perNode.url), 2, CONNECTIONS);
  const batched = await measureHttp('DataLoader (batched loads)', request(app.url), SECONDS, CONNECTIONS);
  const unbatched = await measureHttp('per-node loads', request(perNode.url), SECONDS, CONNECTIONS);
  printTable([batched, unbatched]);
  console.log(
    `\n${RELEASES} releases × (2 tracks, artists, cover art), ${CONNECTIONS} connections, ${SECONDS}s each:`,
  );
  console.log(
    `  SQL statements per request: ${statements.DataLoader} with DataLoader, ${statements['per node']} per node ` +
      '(token lookup included; the cover art key repeats, so the per-node run still caches it)',
  );
  console.log(
    `  throughput DataLoader / per node: ${(batched.requestsPerSecond / unbatched.requestsPerSecond).toFixed(2)}×`,
  );
  console.log(
    `  p99 DataLoader / per node:        ${(batched.p99 / Math.max(unbatched.p99, 0.001)).toFixed(2)}`,
  );
} finally {
  await perNode.stop();
  await bench.close();
}
