import { createHash } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrationsList } from '../../src/migrations/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    runId: string;
  }
}

/** The machine's PostgreSQL (CI, developers); the global setup falls back to an embedded one. */
export const DEFAULT_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A superuser connection string; tests make their own databases there. */
function adminUrl(): string {
  try {
    return inject('adminUrl');
  } catch {
    return DEFAULT_ADMIN_URL; // outside a test worker (the global setup itself)
  }
}

/** Unique to this checkout and migration set, so two checkouts on one machine never share databases. */
export const RUN_KEY = createHash('sha256')
  .update(process.cwd())
  .update(migrationsList.map((m) => m.name).join(','))
  .digest('hex')
  .slice(0, 10);

/** One test run: the checkout's key and the pid of the run's main process (concurrent runs never collide). */
export function runId(): string {
  try {
    return inject('runId');
  } catch {
    return `${RUN_KEY}_${process.pid}`;
  }
}

export function templateDatabase(run = runId()): string {
  return `tributary_tpl_${run}`;
}

export function databaseUrl(name: string, admin = adminUrl()): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>, admin = adminUrl()): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** A fresh, migrated database for one test file, copied from the run's template (fast). */
export async function createTestDatabase(
  label: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `tributary_t_${runId()}_${label}_${Math.floor(Math.random() * 1e9)}`.toLowerCase();
  await withAdmin(async (client) => {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`);
  });
  return { name, url: databaseUrl(name), drop: () => withAdmin((client) => dropDatabase(client, name)) };
}
