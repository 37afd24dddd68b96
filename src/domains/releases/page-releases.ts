import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import { Release } from './release.entity.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface ReleasePage {
  edges: { cursor: string; node: Release }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** A position in the newest-first order: the release's (createdAt, id), opaque to clients. */
export function releaseCursor(release: Release): string {
  return Buffer.from(`${release.createdAt.toISOString()}|${release.id}`).toString('base64url');
}

function readCursor(cursor: string, field: 'after' | 'before'): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(createdAt.getTime())) {
    throw invalidRequest(
      `${field} is not a cursor of this list.`,
      [{ path: field, message: 'not a cursor' }],
      'invalid_cursor',
    );
  }
  return { createdAt, id };
}

function pageSize(value: number | null | undefined, field: 'first' | 'last'): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE) {
    throw invalidRequest(`${field} must be between 0 and ${MAX_PAGE_SIZE}.`, [
      { path: field, message: 'out of range' },
    ]);
  }
  return value;
}

/**
 * The account's releases, newest first, a page at a time by keyset on (createdAt, id): a page never
 * shifts when releases are created meanwhile, and each page is one indexed range read. Forward with
 * `first`/`after`, backward with `last`/`before`.
 */
export async function pageOfReleases(
  em: EntityManager,
  accountId: string,
  args: PageArgs,
): Promise<ReleasePage> {
  const first = pageSize(args.first, 'first');
  const last = pageSize(args.last, 'last');
  const backward = last !== null && first === null;
  const size = (backward ? last : first) ?? DEFAULT_PAGE_SIZE;
  const after = args.after ? readCursor(args.after, 'after') : null;
  const before = args.before ? readCursor(args.before, 'before') : null;
  const older = (c: { createdAt: Date; id: string }) => ({
    $or: [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }],
  });
  const newer = (c: { createdAt: Date; id: string }) => ({
    $or: [{ createdAt: { $gt: c.createdAt } }, { createdAt: c.createdAt, id: { $gt: c.id } }],
  });
  const where = {
    account: accountId,
    $and: [...(after ? [older(after)] : []), ...(before ? [newer(before)] : [])],
  };
  const order = backward ? ('asc' as const) : ('desc' as const);
  const rows = await em.find(Release, where, { orderBy: { createdAt: order, id: order }, limit: size + 1 });
  const more = rows.length > size;
  const nodes = rows.slice(0, size);
  if (backward) nodes.reverse();
  const edges = nodes.map((node) => ({ cursor: releaseCursor(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: backward ? before !== null : more,
      hasPreviousPage: backward ? more : after !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
