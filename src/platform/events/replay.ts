import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity.ts';
import { type OutboxRow, type PublishedEvent, toPublishedEvent } from './pubsub.ts';

export interface EventFilter {
  accountId: string;
  releaseId?: string | null;
  types?: readonly string[] | null;
}

export function matches(event: PublishedEvent, filter: EventFilter): boolean {
  return (
    event.accountId === filter.accountId &&
    (!filter.releaseId || event.releaseId === filter.releaseId) &&
    (!filter.types || filter.types.length === 0 || filter.types.includes(event.type))
  );
}

/** Published events after `cursor`, in cursor order (the replay half of a resumed subscription). */
export async function eventsAfter(
  em: EntityManager,
  filter: EventFilter,
  cursor: number,
  limit = 1000,
): Promise<PublishedEvent[]> {
  const rows = await em.find(
    OutboxEvent,
    {
      accountId: filter.accountId,
      cursor: { $gt: cursor, $ne: null },
      ...(filter.releaseId ? { releaseId: filter.releaseId } : {}),
      ...(filter.types && filter.types.length > 0 ? { type: { $in: [...filter.types] } } : {}),
    },
    { orderBy: { cursor: 'asc' }, limit },
  );
  return rows.map((row) => ({
    cursor: row.cursor ?? 0,
    id: row.id,
    accountId: row.accountId,
    releaseId: row.releaseId ?? null,
    type: row.type,
    payload: row.payload,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The newest cursor published so far (0 when none). */
export async function lastPublishedCursor(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ cursor: string | null }[]>(
    'select max(cursor) as cursor from outbox_events',
  );
  return Number(row?.cursor ?? 0);
}

/** Published events of every account with `after < cursor < before`, in cursor order. */
export async function publishedBetween(
  em: EntityManager,
  after: number,
  before: number,
): Promise<PublishedEvent[]> {
  const rows = await em.execute<OutboxRow[]>(
    `select id, account_id, release_id, type, payload, created_at, cursor from outbox_events
      where cursor > ? and cursor < ? order by cursor`,
    [after, before],
  );
  return rows.map(toPublishedEvent);
}
