import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity.ts';
import type { PublishedEvent } from './pubsub.ts';

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
