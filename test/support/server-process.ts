import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../../src/platform/free-port.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process has written to stdout and stderr so far (its JSON log lines; the first 4 MB). */
  log(): string;
  /** Resolves with the exit code (null when a signal ended it) once its output is all read. */
  exited: Promise<number | null>;
  /** SIGTERM and wait (a no-op once it has exited). */
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
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
    kill9: async () => {
      if (exited()) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
