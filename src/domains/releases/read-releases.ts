import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import { artistProfilesOf } from './artist-profiles.ts';
import { findOwnedRelease } from './find-release.ts';
import { Release } from './release.entity.ts';
import { releaseSearch, searchFilter } from './release-search.ts';
import type { ReleaseInput } from './rules/engine/types.ts';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 500;

/**
 * The caller's most recent releases (drafts and submitted), newest first; limit-only paging. With
 * `search`, those it finds (release-search.ts).
 */
export async function listReleases(
  em: EntityManager,
  accountId: string,
  limit = DEFAULT_LIST_LIMIT,
  search: string | null = null,
): Promise<Release[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw invalidRequest(`limit must be between 1 and ${MAX_LIST_LIMIT}.`, [
      { path: 'limit', message: 'out of range' },
    ]);
  }
  const filter = search === null ? {} : searchFilter(accountId, releaseSearch(search));
  return em.find(
    Release,
    { account: accountId, ...filter },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
  );
}

/** Merged metadata of a release: its latest payload, with the stored per-artist links. */
export function mergedMetadata(release: Release) {
  const input = release.payload.release as ReleaseInput;
  return {
    release: { ...release.payload.release, artist_profiles: artistProfilesOf(input) },
    tracks: release.payload.tracks,
  };
}

export async function getReleaseMetadata(em: EntityManager, accountId: string, releaseId: string) {
  const release = await findOwnedRelease(em, accountId, releaseId, { field: 'id' });
  return { release: release, metadata: mergedMetadata(release) };
}
