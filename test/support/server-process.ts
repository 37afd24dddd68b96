import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../../src/platform/free-port.ts';

/** The server's default SHUTDOWN_GRACE_SECONDS. */
const DEFAULT_GRACE_SECONDS = 10;
/** Past the grace: the server exits by itself 5 s later (facades/main.ts); this leaves it 10. */
const STOP_MARGIN_MS = 10_000;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process has written to stdout and stderr so far (its JSON log lines; the first 4 MB). */
  log(): string;
  /** Resolves with the exit code (null when a signal ended it) once its output is all read. */
  exited: Promise<number | null>;
  /**
   * SIGTERM and wait (a no-op once it has exited). A process still running once its grace period and
   * its own last-resort exit have passed is killed, and the stop rejects, saying so with its last lines.
   */
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

/** The real entry point (`npm start`) as a child process on the given database, serving on its own port. */
export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const url = `http://127.0.0.1:${chosen}`;
  const child = spawn(process.execPath, ['facades/start.js'], {
    env: {
      ...process.env,
      PORT: String(chosen),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    if (output.length < 4 * 1024 * 1024) output += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exitCode = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (output.includes('Tributary is serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    child,
    log: () => output,
    exited: exitCode,
    stop: async () => {
      if (exited()) return;
      const graceSeconds = Number(env.SHUTDOWN_GRACE_SECONDS ?? DEFAULT_GRACE_SECONDS);
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const hung = await Promise.race([
        exit.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceSeconds * 1000 + STOP_MARGIN_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!hung) return;
      child.kill('SIGKILL');
      await exit;
      const tail = output.split('\n').slice(-20).join('\n');
      throw new Error(
        `the server did not stop on SIGTERM within ${graceSeconds} s and a margin; killed:\n${tail}`,
      );
    },
    kill9: async () => {
      if (exited()) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
