import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scratch } from '../../../platform/scratch.ts';
import { UploadSession } from '../upload-session.entity.ts';

const STALE_SCRATCH_MS = 24 * 3600 * 1000;

/**
 * Expires open sessions past their deadline and removes their chunks; removes scratch files nobody
 * finished with (crashed requests). Safe to run on several instances at once.
 */
export async function sweepUploads(
  em: EntityManager,
  scratch: Scratch,
  now = new Date(),
): Promise<{ expired: number }> {
  const expired = await em.find(UploadSession, { status: 'open', expiresAt: { $lte: now } }, { limit: 500 });
  for (const session of expired) {
    session.status = 'expired';
    await rm(scratch.sessionDir(session.id), { recursive: true, force: true });
  }
  await em.flush();
  for (const dir of ['work', 'incoming'])
    await removeOlderThan(path.join(scratch.root, dir), now.getTime() - STALE_SCRATCH_MS);
  return { expired: expired.length };
}

async function removeOlderThan(dir: string, cutoffMs: number): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await removeOlderThan(full, cutoffMs);
      continue;
    }
    const info = await stat(full).catch(() => null);
    if (info && info.mtimeMs < cutoffMs) await rm(full, { force: true });
  }
}
