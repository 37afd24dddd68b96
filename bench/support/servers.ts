import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { migrateToLatest, ormConfig } from '../../src/app-database.ts';
import { createAccount } from '../../src/domains/accounts/create-account.ts';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { freePort as freePortOf } from '../../src/platform/free-port.ts';

export { freePortOf as freePort };

export const ADMIN_URL =
  process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function withAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one bench run on the machine's PostgreSQL, named for the bench and this process:
 * two runs of one bench at the same time (two checkouts on one machine) never share or drop each other's.
 */
export async function freshDatabase(name: string): Promise<string> {
  const database = `${name}_${process.pid}`;
  await withAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await withAdmin(`CREATE DATABASE "${database}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops a database made by freshDatabase. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const database = new URL(databaseUrl).pathname.slice(1);
  await withAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * BENCH_CPU_PROF=<dir>: a server started with these writes its CPU profile there when it stops (node
 * refuses the flag in NODE_OPTIONS, so it goes on the command line).
 */
export const profileArguments = (): string[] =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/** Runs a script under the same Node as the bench and waits for the line announcing its URL. */
export async function startChild(
  script: string,
  env: Record<string, string>,
  pattern: RegExp,
  nodeArguments: string[] = [],
): Promise<Child> {
  const child = spawn(process.execPath, [...nodeArguments, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = pattern.exec(buffer);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${buffer}`)));
  });
  child.stdout!.resume();
  return {
    url,
    process: child,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The real server (`npm start`'s entry point) on a free port of loopback, knowing its own public URL. */
export async function startServer(
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Child> {
  const port = await freePortOf();
  return startChild(
    'facades/main.ts',
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    /"url":"([^"]+)"/,
    profileArguments(),
  );
}

export interface BenchApp {
  databaseUrl: string;
  /** An ORM on the bench database, for arranging rows and in-process work. */
  orm: MikroORM;
  account: { accountId: string; email: string; token: string; tokenId: string };
  app: Child;
  dataDir: string;
  close(): Promise<void>;
}

export type BenchAccount = BenchApp['account'];

/** An account with a bearer token (scope svc:mcp, no expiry) and, when asked, credits. */
export async function benchAccount(orm: MikroORM, email: string, credits = 0): Promise<BenchAccount> {
  const account = await createAccount(orm.em.fork(), { email, firstName: 'Bench' });
  const { token, record } = await issueToken(orm.em.fork(), {
    accountId: account.id,
    name: 'bench',
    scopes: ['svc:mcp'],
    expires: 'none',
  });
  if (credits) await grantCredits(orm.em.fork(), { accountId: account.id, credits });
  return { accountId: account.id, email: account.email, token, tokenId: record.id };
}

/**
 * A fresh, migrated database with one account (and its token and credits), and the real server started
 * on it as a child process (`npm start`'s entry point) knowing its own public URL.
 */
export async function benchApp(
  name: string,
  options: { credits?: number; env?: Record<string, string>; keepDatabase?: boolean } = {},
): Promise<BenchApp> {
  const databaseUrl = await freshDatabase(name);
  const orm = await MikroORM.init(ormConfig(databaseUrl, 12));
  await migrateToLatest(orm, databaseUrl);
  const account = await benchAccount(orm, `${name}@example.com`, options.credits);
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const app = await startServer(databaseUrl, dataDir, options.env);
  return {
    databaseUrl,
    orm,
    account,
    app,
    dataDir,
    close: async () => {
      await app.stop();
      await orm.close();
      if (!options.keepDatabase) await dropDatabase(databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
