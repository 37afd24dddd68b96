import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';

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

/** A port that was free a moment ago, so a server can be told its own public URL before it listens. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
