import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isPortFree } from '../../src/platform/free-port.ts';
import { isProcessAlive } from '../../src/platform/process.ts';

const run = promisify(execFile);
const project = process.cwd();
const dirs: string[] = [];

/** A DATA_DIR the `postgres` system user can reach (as root, PostgreSQL runs as that user). */
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-start-stop-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra };
  delete env.DATABASE_URL;
  if (!extra.EMBEDDED_POSTGRES_PORT) delete env.EMBEDDED_POSTGRES_PORT;
  return env;
}

/** `npm start` in a process group of its own, as a terminal runs it. */
function npmStart(env: NodeJS.ProcessEnv): { child: ChildProcess; log: () => string } {
  const child = spawn('npm', ['start'], {
    cwd: project,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return { child, log: () => log };
}

async function waitFor(check: () => Promise<boolean>, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not ready within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('start and stop as a person runs them', () => {
  it('Ctrl-C (SIGINT to the process group) stops everything cleanly, the database last', async () => {
    const dir = dataDir();
    const port = await freePort();
    const { child, log } = npmStart(serviceEnv({ DATA_DIR: dir, PORT: String(port) }));
    try {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/v1/status`).catch(() => null))?.status === 200,
        90,
      );
      const pgPort = Number(readFileSync(path.join(dir, 'postgres-port'), 'utf8'));
      expect(pgPort).toBeGreaterThan(0);
      const postmasterPid = postmasterOf(dir);
      expect(isProcessAlive(postmasterPid)).toBe(true);

      process.kill(-child.pid!, 'SIGINT');
      await once(child, 'exit');
      // npm re-raises SIGINT and exits at once; the service goes on shutting down, the database last.
      await waitFor(
        async () => !isProcessAlive(postmasterPid) && log().includes('"msg":"stopped"'),
        30,
      ).catch((e) => {
        throw new Error(`${e.message}: ${log()}`);
      });

      expect(log()).toContain('"msg":"stopped"');
      expect(log()).not.toMatch(/"level":(50|60)/);
      expect(log()).not.toMatch(/Unhandled|57P01|^\s+at /m);
      expect(await isPortFree(port)).toBe(true);
      expect(await isPortFree(pgPort)).toBe(true);
      expect(isProcessAlive(postmasterPid)).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 120_000);

  describe('a busy port answers with one line naming the port and the variable', () => {
    let blocker: Server;
    const occupy = async () => {
      const port = await freePort();
      blocker = createServer().listen(port, '127.0.0.1');
      await once(blocker, 'listening');
      return port;
    };
    const start = (env: NodeJS.ProcessEnv) =>
      run(process.execPath, ['facades/start.js'], { cwd: project, env, timeout: 60_000 }).catch(
        (error: { code: number; stderr: string }) => error,
      );

    it('EMBEDDED_POSTGRES_PORT', async () => {
      const busy = await occupy();
      try {
        const failure = await start(
          serviceEnv({ DATA_DIR: dataDir(), PORT: '0', EMBEDDED_POSTGRES_PORT: String(busy) }),
        );
        expect(failure).toMatchObject({ code: 1 });
        const lines = (failure as { stderr: string }).stderr.trim().split('\n');
        expect(lines).toEqual([
          `EMBEDDED_POSTGRES_PORT ${busy} is in use by another program: set EMBEDDED_POSTGRES_PORT to a free port, or unset it to let Tributary pick one.`,
        ]);
      } finally {
        blocker.close();
      }
    }, 90_000);

    it('PORT', async () => {
      const busy = await occupy();
      try {
        const failure = await start(
          serviceEnv({ DATA_DIR: dataDir(), PORT: String(busy), LOG_LEVEL: 'warn' }),
        );
        expect(failure).toMatchObject({ code: 1 });
        expect((failure as { stderr: string }).stderr.trim().split('\n')).toEqual([
          `PORT ${busy} is in use by another program: set PORT to a free port.`,
        ]);
      } finally {
        blocker.close();
      }
    }, 90_000);
  });

  it('a second start on the DATA_DIR a running service uses answers with one line', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = npmStart(serviceEnv({ DATA_DIR: dir, PORT: String(port) }));
    try {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/v1/status`).catch(() => null))?.status === 200,
        90,
      );
      const failure = await run(process.execPath, ['facades/start.js'], {
        cwd: project,
        env: serviceEnv({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn' }),
        timeout: 60_000,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(failure).toMatchObject({ code: 1 });
      const lines = (failure as { stderr: string }).stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Another Tributary process \\(pid \\d+\\) is serving from ${dir}; stop it or use another DATA_DIR\\.$`,
        ),
      );
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) {
        process.kill(-first.child.pid!, 'SIGINT');
        await once(first.child, 'exit');
        await waitFor(async () => first.log().includes('"msg":"stopped"'), 30);
      }
    }
  }, 120_000);

  it('reads .env from the working directory; the environment wins over it', async () => {
    const cwd = dataDir();
    writeFileSync(path.join(cwd, '.env'), 'PORT=not-a-port\nLOG_LEVEL=chatty\n');
    const env = serviceEnv({ PORT: '0' });
    delete env.LOG_LEVEL;
    const failure = await run(process.execPath, [path.join(project, 'facades/start.js')], {
      cwd,
      env,
      timeout: 20_000,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    const stderr = (failure as { stderr: string }).stderr;
    expect(stderr).toContain('LOG_LEVEL');
    expect(stderr).not.toContain('PORT');
  });

  it('an old Node started outside npm says which Node to use, not ERR_UNKNOWN_FILE_EXTENSION', async () => {
    const systemNode = '/usr/bin/node';
    expect(existsSync(systemNode), 'this machine has an older system Node to try').toBe(true);
    const { stdout: version } = await run(systemNode, ['--version']);
    expect(Number.parseInt(version.slice(1), 10)).toBeLessThan(24);
    const failure = await run(systemNode, ['facades/start.js'], { cwd: project }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('Tributary needs Node 24');
    expect((failure as { stderr: string }).stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
  });
});

function postmasterOf(dir: string): number {
  const file = path.join(dir, 'postgres', 'postmaster.pid');
  return Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
}
