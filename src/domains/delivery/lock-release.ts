import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../platform/errors.ts';
import { Release } from '../releases/release.entity.ts';

/**
 * The release, re-read under a row lock that waits (FOR UPDATE): distribute and takedown serialise
 * with the sandbox's steps on it, and lock the release before its deliveries as the steps do.
 */
export async function lockSubmittedRelease(em: EntityManager, releaseId: string): Promise<Release> {
  const release = await em.findOneOrFail(
    Release,
    { id: releaseId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (release.status !== 'submitted') {
    throw conflict(
      `Release ${releaseId} has not been submitted yet; submit it before distributing or taking it down.`,
      'release_not_submitted',
    );
  }
  return release;
}
