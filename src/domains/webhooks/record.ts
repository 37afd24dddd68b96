import type { EntityManager } from '@mikro-orm/postgresql';
import { markCacheNeutral } from '../../platform/db/cache-neutral.ts';
import { pgArray } from '../../platform/db/pg-array.ts';
import type { ClaimedWebhookDelivery } from './claim.ts';
import type { SendOutcome } from './send.ts';
import { AUTO_DISABLE_AFTER_FAILURES } from './webhook-endpoint.entity.ts';

/** Attempts per delivery: the first and two retries. */
export const MAX_ATTEMPTS = 3;
/** Wait before retry n (after attempt n failed): 30 s, then 5 min. */
export const RETRY_BACKOFF_SECONDS = [30, 300] as const;

export interface Sent {
  row: ClaimedWebhookDelivery;
  outcome: SendOutcome;
}

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * Marks successful deliveries succeeded and resets their endpoints' failure counts, in ONE statement
 * (atomic, no explicit transaction) whatever the batch size. Rows deleted or redelivered meanwhile
 * (status or attempts moved) are skipped. Returns how many were recorded.
 */
export async function recordSuccesses(em: EntityManager, done: Sent[], now: Date): Promise<number> {
  if (done.length === 0) return 0;
  const [row] = await em.execute<{ recorded: number }[]>(
    `with v as (
       select * from unnest(?::uuid[], ?::int[], ?::int[], ?::int[]) as v(id, attempts, response_status, latency_ms)
     ), done as (
       update webhook_deliveries d set status = 'succeeded', attempts = d.attempts + 1, next_attempt_at = null,
              response_status = v.response_status, latency_ms = v.latency_ms, last_error = null, delivered_at = ?
         from v
        where d.id = v.id and d.status = 'pending' and d.attempts = v.attempts
        returning d.endpoint_id
     ), reset as (
       update webhook_endpoints set failure_count = 0, updated_at = ?
        where id in (select endpoint_id from done) and failure_count <> 0
     )
     select count(*)::int as recorded from done`,
    [
      pgArray(done.map((d) => d.row.id)),
      pgArray(done.map((d) => d.row.attempts)),
      pgArray(done.map((d) => d.outcome.status ?? 0)),
      pgArray(done.map((d) => d.outcome.latencyMs)),
      now,
      now,
    ],
  );
  return row?.recorded ?? 0;
}

/**
 * Records one failed attempt: a retry after the backoff, or, after the last attempt, `failed` and one
 * more failure on the endpoint (disabled at AUTO_DISABLE_AFTER_FAILURES). Returns the delivery's new
 * status (null when the row is gone or not ours).
 */
export async function recordFailure(em: EntityManager, sent: Sent, now: Date): Promise<string | null> {
  const { row, outcome } = sent;
  return em.transactional(async (tem) => {
    markCacheNeutral(tem);
    const [current] = await tem.execute<{ status: string; attempts: number }[]>(
      'select status, attempts from webhook_deliveries where id = ? for update',
      [row.id],
    );
    // Deleted with its endpoint, or redelivered (attempts reset) meanwhile: nothing to record.
    if (current?.status !== 'pending' || current.attempts !== row.attempts) return null;
    const attempts = row.attempts + 1;
    const retry = attempts < MAX_ATTEMPTS;
    const backoff = RETRY_BACKOFF_SECONDS[attempts - 1] ?? 300;
    await tem.execute(
      `update webhook_deliveries set status = ?, attempts = ?, next_attempt_at = ?,
         response_status = ?, latency_ms = ?, last_error = ? where id = ?`,
      [
        retry ? 'pending' : 'failed',
        attempts,
        retry ? addSeconds(now, backoff) : null,
        outcome.status,
        outcome.latencyMs,
        outcome.error,
        row.id,
      ],
    );
    if (!retry) {
      await tem.execute(
        `update webhook_endpoints set failure_count = failure_count + 1, updated_at = ?,
           disabled_at = case when active and failure_count + 1 >= ? then ? else disabled_at end,
           active = active and failure_count + 1 < ?
         where id = ?`,
        [now, AUTO_DISABLE_AFTER_FAILURES, now, AUTO_DISABLE_AFTER_FAILURES, row.endpoint_id],
      );
    }
    return retry ? 'pending' : 'failed';
  });
}
