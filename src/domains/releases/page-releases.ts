import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, type Page, type PageArgs } from '../../platform/db/keyset.ts';
import { Release } from './release.entity.ts';

/** The account's releases, newest first, a keyset page at a time. */
export function pageOfReleases(em: EntityManager, accountId: string, args: PageArgs): Promise<Page<Release>> {
  return keysetPage(em, Release, { account: accountId }, args);
}
