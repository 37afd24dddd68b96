import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { createAccount } from '../../src/domains/accounts/create-account.ts';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { ormConfig } from '../../src/platform/db/orm.ts';
import { freePort as freePortOf } from '../../src/platform/free-port.ts';

export { freePortOf as freePort };

export const ADMIN_URL =
  process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one bench run on the machine's PostgreSQL. */
export async function freshDatabase(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Runs a script under the same Node as the bench and waits for the line announcing its URL. */
export async function startChild(
  script: string,
  env: Record<string, string>,
  pattern: RegExp,
): Promise<Child> {
  const child = spawn(process.execPath, [script], {
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

export interface BenchApp {
  databaseUrl: string;
  /** An ORM on the bench database, for arranging rows and in-process work. */
  orm: MikroORM;
  account: { accountId: string; email: string; token: string; tokenId: string };
  app: Child;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database with one account (and its token and credits), and the real server started
 * on it as a child process (`npm start`'s entry point) knowing its own public URL.
 */
export async function benchApp(
  name: string,
  options: { credits?: number; env?: Record<string, string> } = {},
): Promise<BenchApp> {
  const databaseUrl = await freshDatabase(name);
  const orm = await MikroORM.init(ormConfig(databaseUrl, 12));
  await migrateToLatest(orm, databaseUrl);
  const account = await createAccount(orm.em.fork(), { email: `${name}@example.com`, firstName: 'Bench' });
  const { token, record } = await issueToken(orm.em.fork(), {
    accountId: account.id,
    name: 'bench',
    scopes: ['svc:mcp'],
    expires: 'none',
  });
  if (options.credits) await grantCredits(orm.em.fork(), { accountId: account.id, credits: options.credits });
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const port = await freePortOf();
  const app = await startChild(
    'facades/main.ts',
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    /"url":"([^"]+)"/,
  );
  return {
    databaseUrl,
    orm,
    account: { accountId: account.id, email: account.email, token, tokenId: record.id },
    app,
    dataDir,
    close: async () => {
      await app.stop();
      await orm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
