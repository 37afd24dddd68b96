import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isPortFree } from '../../src/platform/free-port.ts';
import { isProcessAlive } from '../../src/platform/process.ts';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const SYSTEM_DIR = '/var/lib/tributary';

/**
 * A checkout inside a mode-700 directory (a clone under /root, say): sources (the workspaces too: the
 * service reads the dashboard's documents at start) and node_modules are hard
 * links, so the PostgreSQL binaries live under the closed directory as they would after npm install.
 */
async function closedCheckout(): Promise<{ closed: string; app: string }> {
  const closed = mkdtempSync(path.join(tmpdir(), 'tributary-closed-'));
  expect(statSync(closed).mode & 0o777).toBe(0o700);
  const app = path.join(closed, 'app');
  await run('mkdir', [app]);
  const project = process.cwd();
  const sources = ['src', 'facades', 'schema', 'packages', 'package.json'].map((name) =>
    path.join(project, name),
  );
  await run('cp', ['-al', ...sources, app]);
  await run('cp', ['-al', realpathSync(path.join(project, 'node_modules')), path.join(app, 'node_modules')]);
  return { closed, app };
}

/** `npm start` with no DATABASE_URL and the default DATA_DIR, in a process group of its own. */
function npmStart(app: string, port: number): { child: ChildProcess; log: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  delete env.EMBEDDED_POSTGRES_PORT;
  const child = spawn('npm', ['start'], { cwd: app, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return { child, log: () => log };
}

/** Polls `check` until it holds; fails with the log once the time is up or the server has exited. */
async function waitFor(
  check: () => Promise<boolean>,
  server: { child: ChildProcess | null; log: () => string },
  seconds: number,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline || (server.child && server.child.exitCode !== null)) {
      throw new Error(`not ready within ${seconds} s: ${server.log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function status(url: string): Promise<number | null> {
  try {
    return (await fetch(url)).status;
  } catch {
    return null;
  }
}

/** The system directories a root start wrote for this checkout, named by its log. */
function systemDirsIn(log: string): string[] {
  const dirs = new Set<string>();
  for (const [, dir] of log.matchAll(/"(?:databaseDir|binariesDir)":"([^"]+)"/g)) {
    if (dir?.startsWith(`${SYSTEM_DIR}/`))
      dirs.add(path.join(SYSTEM_DIR, dir.slice(SYSTEM_DIR.length + 1).split('/')[0]!));
  }
  return [...dirs];
}

describe('npm start from a checkout the postgres system user cannot reach', () => {
  const hadSystemDir = existsSync(SYSTEM_DIR);
  const cleanup: string[] = [];
  afterAll(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
    if (!hadSystemDir && existsSync(SYSTEM_DIR) && readdirSync(SYSTEM_DIR).length === 0)
      rmdirSync(SYSTEM_DIR);
  });

  it('serves /v1/status on the embedded PostgreSQL, then stops on Ctrl-C leaving nothing running', async () => {
    const { closed, app } = await closedCheckout();
    cleanup.push(closed);
    const before = new Set(hadSystemDir ? readdirSync(SYSTEM_DIR) : []);
    const port = await freePort();
    const { child, log } = npmStart(app, port);
    try {
      await waitFor(
        async () => (await status(`http://127.0.0.1:${port}/v1/status`)) === 200,
        { child, log },
        90,
      );
      const pgPort = Number(readFileSync(path.join(app, 'data', 'postgres-port'), 'utf8'));
      const databaseDir = /"databaseDir":"([^"]+)"/.exec(log())?.[1] ?? '';
      const postmaster = Number(
        readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      expect(isProcessAlive(postmaster)).toBe(true);
      if (isRoot) {
        // The postgres user runs a copy of the binaries outside the closed directory.
        expect(realpathSync(`/proc/${postmaster}/exe`)).toMatch(
          /^\/var\/lib\/tributary\/postgres-[^/]+\/bin\/postgres$/,
        );
      }

      process.kill(-child.pid!, 'SIGINT');
      await once(child, 'exit');
      // npm re-raises SIGINT and exits at once; the service goes on shutting down, the database last.
      await waitFor(
        async () => !isProcessAlive(postmaster) && log().includes('"msg":"stopped"'),
        { child: null, log },
        30,
      );
      expect(await isPortFree(port)).toBe(true);
      expect(await isPortFree(pgPort)).toBe(true);
      expect(log()).not.toMatch(/Unhandled|"level":(50|60)|^\s+at /m);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      // This checkout's cluster is its own; the versioned binaries stay unless this run made them.
      for (const dir of systemDirsIn(log())) {
        if (!before.has(path.basename(dir))) cleanup.push(dir);
      }
    }
  }, 150_000);
});
