import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../platform/db/pg-array.ts';

/** A webhook delivery claimed for sending, with what the POST needs. */
export interface ClaimedWebhookDelivery {
  id: string;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  /** The secret a rotation replaced, and the end of its grace window (null when none). */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * Claims up to `limit` due deliveries in ONE statement (no explicit transaction): due rows are locked
 * with FOR UPDATE SKIP LOCKED, so claimers in any number of processes never take the same row, and
 * leased by moving `next_attempt_at` to `leaseUntil` — a worker that dies mid-request leaves the row
 * to be retried then (at-least-once). Due rows of a disabled endpoint are closed as failed in the
 * same statement, without sending (and without counting). The partial index of pending rows by
 * (next_attempt_at, event_cursor) lets it read just its LIMIT rows, however many are due.
 */
export async function claimDue(
  em: EntityManager,
  now: Date,
  limit: number,
  leaseUntil: Date,
): Promise<ClaimedWebhookDelivery[]> {
  return em.execute<ClaimedWebhookDelivery[]>(
    `with due as (
       select d.id, d.endpoint_id from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at <= ?
        order by d.next_attempt_at, d.event_cursor limit ? for update skip locked
     ), closed as (
       update webhook_deliveries d set status = 'failed', next_attempt_at = null,
              last_error = 'The endpoint is disabled; not sent.'
         from due join webhook_endpoints e on e.id = due.endpoint_id
        where d.id = due.id and not e.active
     )
     update webhook_deliveries d set next_attempt_at = ?
       from due join webhook_endpoints e on e.id = due.endpoint_id
      where d.id = due.id and e.active
      returning d.id, d.endpoint_id, e.url, e.secret_sealed, e.previous_secret_sealed,
                e.previous_secret_expires_at, d.event_type, d.payload, d.attempts`,
    [now, limit, leaseUntil],
  );
}

/**
 * Makes claimed rows that were not sent due again at `now` (a stopping worker's queue), unless they
 * moved meanwhile (finished, or redelivered).
 */
export async function releaseClaims(
  em: EntityManager,
  rows: ClaimedWebhookDelivery[],
  now: Date,
): Promise<void> {
  await em.execute(
    `update webhook_deliveries d set next_attempt_at = ?
       from unnest(?::uuid[], ?::int[]) as v(id, attempts)
      where d.id = v.id and d.status = 'pending' and d.attempts = v.attempts`,
    [now, pgArray(rows.map((row) => row.id)), pgArray(rows.map((row) => row.attempts))],
  );
}
