import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import { Release } from './release.entity.ts';

/**
 * The caller's release. Malformed, unknown and another account's ids each get their own message; the
 * last one says only that the release is not the caller's, never anything about it.
 */
/** Refuses an id that is not a UUID (400 invalid_release_id, naming the request field). */
export function assertReleaseId(releaseId: string, field: string): void {
  if (!isUuid(releaseId)) {
    throw invalidRequest(
      `${releaseId} is not a valid release id (a UUID).`,
      [{ path: field, message: 'not a uuid' }],
      'invalid_release_id',
    );
  }
}

export const releaseNotFound = (releaseId: string) =>
  notFound(`No release with id ${releaseId} exists.`, 'release_not_found');

/** Says only that the release is not the caller's, never anything about it. */
export const releaseNotOwned = (releaseId: string) =>
  notFound(`Release ${releaseId} does not belong to this account.`, 'release_not_owned');

export async function findOwnedRelease(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  options: { field?: string; lock?: boolean } = {},
): Promise<Release> {
  assertReleaseId(releaseId, options.field ?? 'release_id');
  const release = await em.findOne(
    Release,
    { id: releaseId.toLowerCase() },
    options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!release) throw releaseNotFound(releaseId);
  if (release.account.id !== accountId) throw releaseNotOwned(releaseId);
  return release;
}
