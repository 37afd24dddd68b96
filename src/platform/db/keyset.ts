import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../errors.ts';
import { isUuid } from '../ids.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Rows a list pages through: newest first by (createdAt, id). */
export interface KeysetRow {
  id: string;
  createdAt: Date;
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/**
 * A position in a newest-first list: the row's (createdAt, id), opaque to clients. A filtered list (a
 * search) adds its scope, so a cursor pages only the filter it came from.
 */
export function cursorOf(row: KeysetRow, scope: string | null = null): string {
  const position = `${row.createdAt.toISOString()}|${row.id}`;
  return Buffer.from(scope === null ? position : `${position}|${scope}`).toString('base64url');
}

function readCursor(cursor: string, field: 'after' | 'before', scope: string | null): KeysetRow {
  const [at, id, cursorScope, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(createdAt.getTime()) || rest.length > 0) {
    throw invalidRequest(
      `${field} is not a cursor of this list.`,
      [{ path: field, message: 'not a cursor' }],
      'invalid_cursor',
    );
  }
  if ((cursorScope ?? null) !== scope) {
    const origin =
      cursorScope === undefined
        ? 'the list without a search'
        : scope === null
          ? 'a search'
          : 'another search';
    throw invalidRequest(
      `${field} is a cursor of ${origin}: a cursor pages only the search it came from. Start again without a cursor.`,
      [{ path: field, message: 'cursor of another search' }],
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

const older = (c: KeysetRow) => ({
  $or: [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }],
});
const newer = (c: KeysetRow) => ({
  $or: [{ createdAt: { $gt: c.createdAt } }, { createdAt: c.createdAt, id: { $gt: c.id } }],
});

/**
 * One page of a newest-first list, by keyset on (createdAt, id): a page never shifts when rows are
 * added meanwhile, and each page is one indexed range read. Forward with `first`/`after`, backward
 * with `last`/`before`; at most 100 a page, 20 by default. `scope` names a filter beyond the list's
 * own (a search): its cursors carry it, and a cursor of another scope is refused (`invalid_cursor`).
 */
export async function keysetPage<T extends KeysetRow>(
  em: EntityManager,
  entity: EntityName<T>,
  where: Record<string, unknown>,
  args: PageArgs,
  scope: string | null = null,
): Promise<Page<T>> {
  const first = pageSize(args.first, 'first');
  const last = pageSize(args.last, 'last');
  const backward = last !== null && first === null;
  const size = (backward ? last : first) ?? DEFAULT_PAGE_SIZE;
  const after = args.after ? readCursor(args.after, 'after', scope) : null;
  const before = args.before ? readCursor(args.before, 'before', scope) : null;
  const order = backward ? ('asc' as const) : ('desc' as const);
  const rows = (await em.find(
    entity as never,
    { ...where, $and: [...(after ? [older(after)] : []), ...(before ? [newer(before)] : [])] } as never,
    { orderBy: { createdAt: order, id: order }, limit: size + 1 } as never,
  )) as T[];
  const more = rows.length > size;
  const nodes = rows.slice(0, size);
  if (backward) nodes.reverse();
  const edges = nodes.map((node) => ({ cursor: cursorOf(node, scope), node }));
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
