import type { EntityManager } from '@mikro-orm/postgresql';
import { claimDue } from './claim.ts';
import { recordFailure, recordSuccesses, type Sent } from './record.ts';
import { type SendDeps, sendWebhook } from './send.ts';

export { RETRY_BACKOFF_SECONDS } from './record.ts';

/** Added to the request timeout for a claim's lease: a worker that dies mid-request frees the row then. */
export const CLAIM_MARGIN_SECONDS = 60;

export interface SendDueDeps extends SendDeps {
  now: Date;
  /** The outbound client's timeout; claims are leased for it plus a margin. */
  timeoutSeconds: number;
}

/** Sends by outcome: succeeded, retrying (failed, a retry left) or failed (none left). */
export interface SendCounts {
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
}

/** When a claim made at `now` expires. */
export const leaseUntil = (now: Date, timeoutSeconds: number) =>
  new Date(now.getTime() + (timeoutSeconds + CLAIM_MARGIN_SECONDS) * 1000);

/**
 * Records sends: the successes in one statement, each failure in its own transaction. Returns the
 * counts by outcome (`claimed` is the caller's).
 */
export async function recordSent(em: EntityManager, sent: Sent[], now: Date): Promise<SendCounts> {
  const result: SendCounts = { claimed: 0, succeeded: 0, retrying: 0, failed: 0 };
  result.succeeded = await recordSuccesses(
    em,
    sent.filter((s) => s.outcome.ok),
    now,
  );
  for (const failed of sent.filter((s) => !s.outcome.ok)) {
    const status = await recordFailure(em.fork(), failed, now);
    if (status === 'pending') result.retrying++;
    else if (status === 'failed') result.failed++;
  }
  return result;
}

/**
 * One round: claims up to `limit` due webhook deliveries (`claimDue`), POSTs them concurrently outside
 * any transaction, and records the outcomes (`recordSent`). The webhook sender (sender.ts) runs the
 * same steps as a continuous pipeline; this round form is for tests and one-off draining.
 */
export async function sendDueWebhooks(em: EntityManager, deps: SendDueDeps, limit = 10): Promise<SendCounts> {
  const claimed = await claimDue(em, deps.now, limit, leaseUntil(deps.now, deps.timeoutSeconds));
  // A rotated-out secret's grace is judged at the round's time, as the claim is.
  const sendDeps = { ...deps, clock: deps.clock ?? { now: () => deps.now } };
  const sent = await Promise.all(
    claimed.map(async (row) => ({ row, outcome: await sendWebhook(row, sendDeps) })),
  );
  const result = await recordSent(em.fork(), sent, deps.now);
  return { ...result, claimed: claimed.length };
}
