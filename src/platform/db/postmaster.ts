import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from '../logger.ts';
import type { SystemUser } from './postgres-user.ts';
import { cannotRun, lastComplaint, StartError } from './start-error.ts';

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/**
 * Starts the postmaster in a session of its own (`detached`: setsid), so a Ctrl-C in the terminal reaches
 * the service but not its database: the service closes its pools first and stops PostgreSQL last.
 */
export async function spawnPostmaster(options: {
  postgres: string;
  runAs: SystemUser | null;
  databaseDir: string;
  port: number;
  flags: string[];
  log: Logger;
}): Promise<ChildProcess> {
  const child = spawn(
    options.postgres,
    ['-D', options.databaseDir, '-p', String(options.port), ...options.flags],
    {
      ...options.runAs,
      cwd: '/',
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(cannotRun(options.postgres, error, options.runAs !== null)));
    child.once('exit', (code, signal) => {
      if (/could not bind|Address already in use/.test(output)) {
        reject(new PortInUseError(`port ${options.port} is in use`));
      } else {
        reject(
          new StartError(
            `The embedded PostgreSQL stopped during start (${signal ?? `exit ${code}`}: ${lastComplaint(output)}): fix the cause, or set DATABASE_URL to a PostgreSQL server.`,
          ),
        );
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      if (output.length < 64 * 1024) output += message;
      options.log.debug({ postgres: message.trim() }, 'embedded postgres');
      if (message.includes('ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.on('error', (error) => options.log.warn({ err: error }, 'embedded postgres'));
  child.on('exit', (code, signal) => options.log.debug({ code, signal }, 'embedded postgres stopped'));
  return child;
}

/** Fast shutdown (SIGINT: sessions end, nothing is lost), then SIGKILL if it has not stopped in 30 s. */
export async function stopPostmaster(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}
