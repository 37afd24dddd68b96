import type { EntityManager } from '@mikro-orm/postgresql';
import { markCacheNeutral } from '../../platform/db/cache-neutral.ts';
import { isAppError } from '../../platform/errors.ts';
import type { OutboundClient } from '../../platform/http/index.ts';
import { open } from '../../platform/secret-box.ts';
import { webhookHeaders } from './signature.ts';
import { AUTO_DISABLE_AFTER_FAILURES } from './webhook-endpoint.entity.ts';

/** Attempts per delivery: the first and two retries. */
export const MAX_ATTEMPTS = 3;
/** Wait before retry n (after attempt n failed): 30 s, then 5 min. */
export const RETRY_BACKOFF_SECONDS = [30, 300] as const;
/** Added to the request timeout for a claim's lease: a worker that dies mid-request frees the row then. */
export const CLAIM_MARGIN_SECONDS = 60;

export interface DeliverDeps {
  /** The SSRF-guarded client (no redirects wanted: create it with maxRedirects 0). */
  outbound: OutboundClient;
  secretKey: Uint8Array;
  now: Date;
  /** The outbound client's timeout; claims are leased for it plus a margin. */
  timeoutSeconds: number;
}

export interface DeliverResult {
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
}

interface Claimed {
  id: string;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
}

interface Outcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * Sends due deliveries. A short transaction claims them (FOR UPDATE SKIP LOCKED, so workers in any
 * number of processes never take the same row) and leases them by moving `next_attempt_at` past the
 * request timeout: a worker that crashes mid-request leaves the row to be retried (at-least-once).
 * Due rows of a disabled endpoint are closed as failed without sending (and without counting).
 * The POSTs happen outside any transaction; each outcome is recorded in its own.
 */
export async function deliverDue(em: EntityManager, deps: DeliverDeps, limit = 10): Promise<DeliverResult> {
  const { now } = deps;
  const claimed = await em.transactional(async (tem) => {
    markCacheNeutral(tem);
    const due = await tem.execute<{ id: string; active: boolean }[]>(
      `select d.id, e.active from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= ?
        order by d.next_attempt_at, d.event_cursor limit ? for update of d skip locked`,
      [now, limit],
    );
    const closed = due.filter((row) => !row.active).map((row) => row.id);
    const open = due.filter((row) => row.active).map((row) => row.id);
    if (closed.length > 0) {
      await tem.execute(
        `update webhook_deliveries set status = 'failed', next_attempt_at = null,
           last_error = 'The endpoint is disabled; not sent.' where id in (?)`,
        [closed],
      );
    }
    if (open.length === 0) return [];
    return tem.execute<Claimed[]>(
      `update webhook_deliveries d set next_attempt_at = ?
         from webhook_endpoints e
        where d.id in (?) and e.id = d.endpoint_id
        returning d.id, d.endpoint_id, e.url, e.secret_sealed, d.event_type, d.payload, d.attempts`,
      [addSeconds(now, deps.timeoutSeconds + CLAIM_MARGIN_SECONDS), open],
    );
  });
  const result: DeliverResult = { claimed: claimed.length, succeeded: 0, retrying: 0, failed: 0 };
  const outcomes = await Promise.all(claimed.map(async (row) => ({ row, outcome: await post(row, deps) })));
  // Successes (the common case) are recorded for the whole round at once; failures one by one.
  result.succeeded = await recordSuccesses(
    em.fork(),
    outcomes.filter((o) => o.outcome.ok),
    now,
  );
  for (const { row, outcome } of outcomes.filter((o) => !o.outcome.ok)) {
    const status = await record(em.fork(), row, outcome, now);
    if (status === 'pending') result.retrying++;
    else if (status === 'failed') result.failed++;
  }
  return result;
}

/**
 * Marks a round's successful deliveries succeeded and resets their endpoints' failure counts, in one
 * transaction. Like `record`, it skips rows deleted or redelivered meanwhile (status or attempts moved).
 */
async function recordSuccesses(
  em: EntityManager,
  done: { row: Claimed; outcome: Outcome }[],
  now: Date,
): Promise<number> {
  if (done.length === 0) return 0;
  return em.transactional(async (tem) => {
    markCacheNeutral(tem);
    const values = done.map(() => '(?::uuid, ?::int, ?::int, ?::int)').join(', ');
    const params = done.flatMap(({ row, outcome }) => [
      row.id,
      row.attempts,
      outcome.status,
      outcome.latencyMs,
    ]);
    const updated = await tem.execute<{ endpoint_id: string }[]>(
      `update webhook_deliveries d set status = 'succeeded', attempts = d.attempts + 1, next_attempt_at = null,
         response_status = v.response_status, latency_ms = v.latency_ms, last_error = null, delivered_at = ?
         from (values ${values}) as v(id, attempts, response_status, latency_ms)
        where d.id = v.id and d.status = 'pending' and d.attempts = v.attempts
        returning d.endpoint_id`,
      [now, ...params],
    );
    const endpoints = [...new Set(updated.map((u) => u.endpoint_id))];
    if (endpoints.length > 0) {
      await tem.execute(
        'update webhook_endpoints set failure_count = 0, updated_at = ? where id in (?) and failure_count <> 0',
        [now, endpoints],
      );
    }
    return updated.length;
  });
}

async function post(row: Claimed, deps: DeliverDeps): Promise<Outcome> {
  const body = JSON.stringify(row.payload);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const secret = open(row.secret_sealed, deps.secretKey);
    const headers = webhookHeaders({
      secret,
      body,
      eventType: row.event_type,
      deliveryId: row.id,
      // Wall-clock time of sending (receivers compare it with their own clock).
      timestamp: Math.floor(Date.now() / 1000),
      attempt: row.attempts + 1,
    });
    const response = await deps.outbound.request(row.url, {
      method: 'POST',
      headers,
      body,
      fieldPath: 'url',
    });
    response.dispose();
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      status: response.status,
      latencyMs: latency(),
      error: ok ? null : `HTTP ${response.status}`,
    };
  } catch (error) {
    const message = isAppError(error)
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, status: null, latencyMs: latency(), error: message.slice(0, 1000) };
  }
}

/** Records one attempt; returns the delivery's new status (null when the row is gone or not ours). */
async function record(em: EntityManager, row: Claimed, outcome: Outcome, now: Date): Promise<string | null> {
  return em.transactional(async (tem) => {
    markCacheNeutral(tem);
    const [current] = await tem.execute<{ status: string; attempts: number }[]>(
      'select status, attempts from webhook_deliveries where id = ? for update',
      [row.id],
    );
    // Deleted with its endpoint, or redelivered (attempts reset) meanwhile: nothing to record.
    if (current?.status !== 'pending' || current.attempts !== row.attempts) return null;
    const attempts = row.attempts + 1;
    if (outcome.ok) {
      await tem.execute(
        `update webhook_deliveries set status = 'succeeded', attempts = ?, next_attempt_at = null,
           response_status = ?, latency_ms = ?, last_error = null, delivered_at = ? where id = ?`,
        [attempts, outcome.status, outcome.latencyMs, now, row.id],
      );
      await tem.execute(
        'update webhook_endpoints set failure_count = 0, updated_at = ? where id = ? and failure_count <> 0',
        [now, row.endpoint_id],
      );
      return 'succeeded';
    }
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
