/**
 * GET /v1/me four ways, side by side in one run: the REST facade, the same GraphQL query over HTTP,
 * the same operation in-process, and a bare express route returning constant JSON.
 * Target (issue: the spine): the facade adds ≤ 10% over GraphQL over HTTP.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { parse } from 'graphql';
import { authenticate } from '../schema/context.ts';
import { prepareOperation, runOperation } from '../schema/execute.ts';
import { buildAppServices } from '../schema/services.ts';
import { migrateToLatest, ormConfig } from '../src/app-database.ts';
import { createAccount } from '../src/domains/accounts/create-account.ts';
import { issueToken } from '../src/domains/accounts/issue-token.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { measureHttp, measureInProcess, printTable } from './support/measure.ts';
import { dropDatabase, freshDatabase, startChild } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const ME_QUERY = `query GetProfile { profile: me { id email first_name: firstName last_name: lastName created_at: createdAt
  avatar_url: avatarUrl is_insider: isInsider is_patron: isPatron is_admin: isAdmin } }`;

const databaseUrl = await freshDatabase('tributary_bench');
const orm = await MikroORM.init(ormConfig(databaseUrl, 10));
await migrateToLatest(orm, databaseUrl);
const account = await createAccount(orm.em.fork(), { email: 'bench@example.com', firstName: 'Bench' });
const { token } = await issueToken(orm.em.fork(), {
  accountId: account.id,
  name: 'bench',
  scopes: ['svc:mcp'],
  expires: 'none',
});
const auth = { authorization: `Bearer ${token}` };

const app = await startChild(
  'facades/main.ts',
  { DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
  /"url":"([^"]+)"/,
);
const bare = await startChild('bench/support/bare-express.ts', {}, /listening on (\S+)/);

try {
  parse(ME_QUERY);
  const warm = { seconds: 2, connections: CONNECTIONS };
  await measureHttp('warm-up', { url: `${app.url}/v1/me`, headers: auth }, warm.seconds, warm.connections);

  const rest = await measureHttp(
    'REST facade  GET /v1/me',
    { url: `${app.url}/v1/me`, headers: auth },
    SECONDS,
    CONNECTIONS,
  );
  const graphqlHttp = await measureHttp(
    'GraphQL over HTTP (same query)',
    {
      url: `${app.url}/graphql`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: ME_QUERY }),
    },
    SECONDS,
    CONNECTIONS,
  );
  const bareExpress = await measureHttp(
    'bare express, constant JSON',
    { url: `${bare.url}/v1/me` },
    SECONDS,
    CONNECTIONS,
  );

  // In-process: the same operation through runOperation, with the same per-request authentication.
  const services = await buildAppServices(
    loadConfig({ DATABASE_URL: databaseUrl }),
    orm,
    createLogger('silent'),
    'bench',
  );
  const prepared = prepareOperation(ME_QUERY);
  const inProcess = await measureInProcess(
    'GraphQL in-process (runOperation)',
    async () => {
      const principal = await authenticate(services, token);
      const result = await runOperation(services, prepared, { principal, channel: 'graphql' });
      if (result.errors.length > 0) throw result.errors[0];
    },
    SECONDS,
    CONNECTIONS,
  );

  printTable([rest, graphqlHttp, inProcess, bareExpress]);
  const overhead = (graphqlHttp.requestsPerSecond / rest.requestsPerSecond - 1) * 100;
  console.log(`\nratios (one run, ${CONNECTIONS} connections, ${SECONDS}s each):`);
  console.log(
    `  REST facade / GraphQL over HTTP throughput: ${(rest.requestsPerSecond / graphqlHttp.requestsPerSecond).toFixed(3)}`,
  );
  console.log(`  facade overhead vs GraphQL over HTTP:       ${overhead.toFixed(1)}% (target ≤ 10%)`);
  console.log(
    `  REST facade p99 / GraphQL over HTTP p99:    ${(rest.p99 / Math.max(graphqlHttp.p99, 0.001)).toFixed(3)}`,
  );
  console.log(
    `  in-process / GraphQL over HTTP throughput:  ${(inProcess.requestsPerSecond / graphqlHttp.requestsPerSecond).toFixed(3)}`,
  );
  console.log(
    `  REST facade / bare express throughput:      ${(rest.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(3)}`,
  );
} finally {
  await app.stop();
  await bare.stop();
  await orm.close();
  await dropDatabase(databaseUrl);
}
