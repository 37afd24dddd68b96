import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, ormConfig } from '../../src/app-database.ts';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { isProcessAlive } from '../../src/platform/process.ts';
import {
  DEFAULT_ADMIN_URL,
  databaseUrl,
  dropDatabase,
  RUN_KEY,
  runId,
  templateDatabase,
  withAdmin,
} from './database.ts';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Tests run on the machine's PostgreSQL (127.0.0.1:5432, as in CI). On a machine without one, the run
 * starts an embedded PostgreSQL of its own, so `npm test` works on a fresh machine too.
 */
async function adminDatabase(): Promise<{ url: string; stop(): Promise<void> }> {
  if (await reachable(DEFAULT_ADMIN_URL)) return { url: DEFAULT_ADMIN_URL, stop: async () => {} };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-test-pg-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  console.log(
    `no PostgreSQL at ${new URL(DEFAULT_ADMIN_URL).host}: starting an embedded one on port ${port}`,
  );
  const embedded = await startEmbeddedPostgres(dataDir, port, createLogger('warn'));
  const url = new URL(embedded.url);
  url.pathname = '/postgres';
  return {
    url: url.toString(),
    stop: async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function databasesLike(client: pg.Client, pattern: string): Promise<string[]> {
  const rows = await client.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1',
    [pattern],
  );
  return rows.rows.map((row) => row.datname);
}

/** Sweeps databases left by dead runs of this checkout; a live concurrent run keeps its own. */
async function dropDatabasesOfDeadRuns(client: pg.Client): Promise<void> {
  for (const name of await databasesLike(client, `tributary_t%_${RUN_KEY}_%`)) {
    const pid = Number.parseInt(name.split(`_${RUN_KEY}_`)[1] ?? '', 10);
    if (!Number.isInteger(pid) || !isProcessAlive(pid)) await dropDatabase(client, name);
  }
}

/** Builds the run's migrated template database, which every test file copies. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const admin = await adminDatabase();
  const run = runId();
  const template = templateDatabase(run);
  project.provide('adminUrl', admin.url);
  project.provide('runId', run);
  await withAdmin(async (client) => {
    await dropDatabasesOfDeadRuns(client);
    await client.query(`CREATE DATABASE "${template}"`);
  }, admin.url);
  const url = databaseUrl(template, admin.url);
  const orm = await MikroORM.init(ormConfig(url, 2));
  await migrateToLatest(orm, url);
  await orm.close();
  return async () => {
    await withAdmin(async (client) => {
      for (const name of await databasesLike(client, `tributary_t%_${run}_%`))
        await dropDatabase(client, name);
      await dropDatabase(client, template);
    }, admin.url);
    await admin.stop();
  };
}
