import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../../src/platform/free-port.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process has written to stdout and stderr so far. */
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
  const exitCode = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Tributary is serving')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
  child.stdout!.resume();
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
