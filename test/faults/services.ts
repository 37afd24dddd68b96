import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { freePort } from '../../src/platform/free-port.ts';
import { createLogger } from '../../src/platform/logger.ts';

type Step = () => Promise<void>;

/**
 * A PostgreSQL of the test's own (the embedded-postgres binaries) on a free port, which the test may
 * stop, kill and start again on the same port and data: the machine's shared server is never touched.
 */
export interface PrivatePostgres {
  url: string;
  /** A routine restart's first half: fast shutdown (sessions are terminated with 57P01). */
  stop(): Promise<void>;
  /** A crash: SIGKILL to the postmaster (its backends follow), no shutdown checkpoint. */
  kill(): Promise<void>;
  start(): Promise<void>;
}

export async function startPrivatePostgres(cleanup: Step[]): Promise<PrivatePostgres> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-faults-pg-'));
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const log = createLogger('warn');
  let running = await startEmbeddedPostgres(dataDir, port, log);
  let stopped = false;
  cleanup.push(async () => {
    if (!stopped) await running.stop();
  });
  const postmasterPid = () =>
    Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const waitGone = async (pid: number) => {
    for (let i = 0; i < 300; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`postmaster ${pid} did not stop`);
  };
  return {
    url: running.url,
    stop: async () => {
      stopped = true;
      await running.stop();
    },
    kill: async () => {
      const pid = postmasterPid();
      stopped = true;
      process.kill(pid, 'SIGKILL');
      await waitGone(pid);
    },
    start: async () => {
      // After a SIGKILL, backends may hold the shared memory for a moment: PostgreSQL then refuses to
      // start, and the next attempt succeeds.
      for (let attempt = 0; ; attempt++) {
        try {
          running = await startEmbeddedPostgres(dataDir, port, log);
          stopped = false;
          return;
        } catch (error) {
          if (attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    },
  };
}

/** A Redis of the test's own (Debian's redis-server, installed by .ci/run) on a free port. */
export interface PrivateRedis {
  url: string;
  /** SIGKILL: connections drop at once, nothing is kept (it keeps nothing on disk anyway). */
  kill(): Promise<void>;
  start(): Promise<void>;
}

export async function startPrivateRedis(cleanup: Step[]): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.once('error', reject);
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
    started.removeAllListeners('exit');
    started.stdout!.resume();
    child = started;
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGKILL');
    await once(running, 'exit');
  };
  await start();
  cleanup.push(kill);
  return { url: `redis://127.0.0.1:${port}`, kill, start };
}
