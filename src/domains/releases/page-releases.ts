import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, type Page, type PageArgs } from '../../platform/db/keyset.ts';
import { Release } from './release.entity.ts';
import { releaseSearch, searchFilter, searchScope } from './release-search.ts';

/**
 * The account's releases, newest first, a keyset page at a time; with `search`, those it finds
 * (release-search.ts), whose cursors page that search only.
 */
export function pageOfReleases(
  em: EntityManager,
  accountId: string,
  args: PageArgs,
  search: string | null = null,
): Promise<Page<Release>> {
  if (search === null) return keysetPage(em, Release, { account: accountId }, args);
  const parsed = releaseSearch(search);
  return keysetPage(
    em,
    Release,
    { account: accountId, ...searchFilter(accountId, parsed) },
    args,
    searchScope(parsed),
  );
}
