import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where a root start puts what the `postgres` system user must reach when the checkout or DATA_DIR is
 * closed to it: a copy of the PostgreSQL binaries and the clusters.
 */
export const SYSTEM_DIR = '/var/lib/tributary';

/** Creates a directory under SYSTEM_DIR that others can traverse, whatever root's umask. */
export async function openSystemDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let each = dir; each === SYSTEM_DIR || each.startsWith(`${SYSTEM_DIR}/`); each = path.dirname(each)) {
    const { mode } = await stat(each);
    if ((mode & 0o005) !== 0o005) await chmod(each, (mode | 0o005) & 0o7777);
  }
}

/** The closest directory above `target` (itself excluded) that others cannot traverse, or null. */
export async function closedAncestor(target: string): Promise<string | null> {
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) return dir;
    if (dir === path.dirname(dir)) return null;
  }
}

/**
 * The first entry of the tree at `dir` that others cannot use: a directory they cannot list and traverse,
 * a file they cannot read, or an executable they cannot execute. Null when all of it is open.
 */
export async function closedEntry(dir: string): Promise<string | null> {
  if (((await stat(dir)).mode & 0o005) !== 0o005) return dir;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) continue;
    const { mode } = await lstat(full);
    const needed = entry.isDirectory() || (mode & 0o100) !== 0 ? 0o005 : 0o004;
    if ((mode & needed) !== needed) return full;
  }
  return null;
}
