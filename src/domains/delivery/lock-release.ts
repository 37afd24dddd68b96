import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../platform/errors.ts';
import { findOwnedRelease, Release } from '../releases/index.ts';

/**
 * The release, re-read under a row lock that waits (FOR UPDATE): distribute and takedown serialise
 * with the delivery steps on it, and lock the release before its deliveries as the steps do.
 */
export async function lockSubmittedRelease(em: EntityManager, releaseId: string): Promise<Release> {
  const release = await em.findOneOrFail(
    Release,
    { id: releaseId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  return assertSubmitted(release);
}

/** The caller's release, locked (FOR UPDATE, through its owner), submitted and no sandbox sample — else 409. */
export async function lockOwnedSubmittedRelease(
  em: EntityManager,
  accountId: string,
  releaseId: string,
): Promise<Release> {
  return assertSubmitted(
    await findOwnedRelease(em, accountId, releaseId, { field: 'releaseId', lock: true }),
  );
}

function assertSubmitted(release: Release): Release {
  const releaseId = release.id;
  if (release.status !== 'submitted') {
    throw conflict(
      `Release ${releaseId} has not been submitted yet; submit it before distributing or taking it down.`,
      'release_not_submitted',
    );
  }
  // The sample has no audio to send: it exists for test events only, and stays as it was made.
  if (release.sandboxSample) {
    throw conflict(
      `Release ${releaseId} is the account's sandbox sample, made for test events: it is never delivered ` +
        'to stores nor taken down. Distribute a release of your own.',
      'sandbox_sample_release',
    );
  }
  return release;
}
