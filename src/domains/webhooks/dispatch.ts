import type { EntityManager } from '@mikro-orm/postgresql';
import { markCacheNeutral } from '../../platform/db/cache-neutral.ts';
import { type OutboxRow, type PublishedEvent, toPublishedEvent } from '../../platform/events/pubsub.ts';
import { payloadHash } from './payload-hash.ts';
import { DISPATCH_CURSOR_ID } from './webhook-dispatch-cursor.entity.ts';

/** An identical event (same endpoint, release and content) is not sent again within this window. */
export const DUPLICATE_WINDOW_SECONDS = 6 * 60 * 60;

export interface DispatchResult {
  /** Deliveries created as pending (to be sent). */
  queued: number;
  /** Deliveries created as suppressed (an identical event reached the endpoint within the window). */
  suppressed: number;
}

/**
 * Fans one published event out, in one transaction: one delivery per active endpoint of the owner
 * that subscribes to the type, inserted with ON CONFLICT DO NOTHING on (endpoint, event) — so any
 * number of dispatchers, or a replay after a crash, create each delivery once — and the persisted
 * cursor moved forward to the event (never back).
 *
 * A delivery is created `suppressed` instead of `pending` when a delivery of an identical event
 * (same release, same payload apart from `occurredAt`) to that endpoint SUCCEEDED within the last 6
 * hours; pending or failed earlier copies do not suppress (the receiver has not had it). Test events
 * (`test: true`, made on request by the sandbox) are never suppressed.
 */
export async function dispatchEvent(
  em: EntityManager,
  event: PublishedEvent,
  now: Date,
): Promise<DispatchResult> {
  return dispatchEvents(em, [event], now);
}

/**
 * Fans several published events out in one transaction (one commit for a burst), with the same rules
 * as `dispatchEvent`; the cursor moves to the last of them.
 */
export async function dispatchEvents(
  em: EntityManager,
  events: PublishedEvent[],
  now: Date,
): Promise<DispatchResult> {
  const total: DispatchResult = { queued: 0, suppressed: 0 };
  if (events.length === 0) return total;
  return em.transactional(async (tem) => {
    markCacheNeutral(tem);
    for (const event of events) {
      const result = await fanOut(tem, event, now);
      total.queued += result.queued;
      total.suppressed += result.suppressed;
    }
    await advanceCursor(tem, Math.max(...events.map((e) => e.cursor)));
    return total;
  });
}

async function fanOut(tem: EntityManager, event: PublishedEvent, now: Date): Promise<DispatchResult> {
  const hash = payloadHash(event.payload);
  // A test event is asked for, each one: a second of the same is what the developer wants to see.
  const suppressible = event.payload.test !== true;
  const since = new Date(now.getTime() - DUPLICATE_WINDOW_SECONDS * 1000);
  const rows = await tem.execute<{ status: string }[]>(
    `insert into webhook_deliveries
       (id, endpoint_id, event_id, event_cursor, event_type, release_id, payload, payload_hash,
        status, attempts, next_attempt_at, created_at)
     select gen_random_uuid(), e.id, ?, ?, ?, ?::uuid, ?::jsonb, ?,
            s.status, 0, case when s.status = 'pending' then ?::timestamptz end, ?::timestamptz
       from webhook_endpoints e
       cross join lateral (
         select case when ?::boolean and exists (
           select 1 from webhook_deliveries d
            where d.endpoint_id = e.id and d.release_id is not distinct from ?::uuid
              and d.payload_hash = ? and d.status = 'succeeded' and d.delivered_at > ?::timestamptz
         ) then 'suppressed' else 'pending' end as status
       ) s
      where e.account_id = ? and e.active and ? = any(e.event_types)
      order by e.id
     on conflict (endpoint_id, event_id) do nothing
     returning status`,
    [
      event.id,
      event.cursor,
      event.type,
      event.releaseId,
      JSON.stringify(event.payload),
      hash,
      now,
      now,
      suppressible,
      event.releaseId,
      hash,
      since,
      event.accountId,
      event.type,
    ],
  );
  return {
    queued: rows.filter((row) => row.status === 'pending').length,
    suppressed: rows.filter((row) => row.status === 'suppressed').length,
  };
}

export async function advanceCursor(em: EntityManager, cursor: number): Promise<void> {
  await em.execute(
    `insert into webhook_dispatch_cursor (id, cursor) values (?, ?)
     on conflict (id) do update set cursor = greatest(webhook_dispatch_cursor.cursor, excluded.cursor)`,
    [DISPATCH_CURSOR_ID, cursor],
  );
}

/**
 * The persisted cursor. The first time (no row yet) it starts at the newest published event: history
 * from before webhooks ran is not sent.
 */
export async function readDispatchCursor(em: EntityManager): Promise<number> {
  await em.execute(
    `insert into webhook_dispatch_cursor (id, cursor)
     select ?, coalesce(max(cursor), 0) from outbox_events
     on conflict (id) do nothing`,
    [DISPATCH_CURSOR_ID],
  );
  const [row] = await em.execute<{ cursor: string | number }[]>(
    'select cursor from webhook_dispatch_cursor where id = ?',
    [DISPATCH_CURSOR_ID],
  );
  return Number(row?.cursor ?? 0);
}

/** Published events of every account after `cursor`, in cursor order (the dispatcher's replay). */
export async function publishedEventsAfter(
  em: EntityManager,
  cursor: number,
  limit = 500,
): Promise<PublishedEvent[]> {
  const rows = await em.execute<OutboxRow[]>(
    `select id, account_id, release_id, type, payload, created_at, cursor from outbox_events
      where cursor > ? order by cursor limit ?`,
    [cursor, limit],
  );
  return rows.map(toPublishedEvent);
}
