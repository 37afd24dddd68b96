import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock } from '../../platform/clock.ts';
import { findOwnEndpoint } from './endpoints.ts';
import { PING_EVENT_TYPE } from './event-types.ts';
import { payloadHash } from './payload-hash.ts';
import { type SendDeps, sendWebhook } from './send.ts';
import { leaseUntil } from './send-due.ts';
import { WebhookDelivery } from './webhook-delivery.entity.ts';

export interface PingDeps extends SendDeps {
  /** The webhook client's timeout: the row is leased for it, as a claimed row is. */
  timeoutSeconds: number;
}

/**
 * Sends a signed `ping` to one of the caller's endpoints now, and answers with its delivery record.
 * The delivery is a row of the log like any other (event type `ping`, a negative event id of its own,
 * no release), sent by `sendWebhook` through the SSRF-guarded client with the endpoint's secrets. A
 * ping is a test: one attempt, no retry, and neither its failure nor its success touches the
 * endpoint's failure count; a disabled endpoint can be pinged (to check the receiver before
 * re-enabling it). The row is written leased before the POST, so should this process die meanwhile,
 * the sender sends it when the lease ends, as any delivery.
 */
export async function pingEndpoint(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  deps: PingDeps,
): Promise<WebhookDelivery> {
  const endpoint = await findOwnEndpoint(em, accountId, endpointId, { withSecrets: true });
  const clock = deps.clock ?? systemClock;
  const now = clock.now();
  const payload = { event: PING_EVENT_TYPE, endpointId: endpoint.id, occurredAt: now.toISOString() };
  // One statement, no transaction: written at once, visible in the log while the POST is in flight.
  const [row] = await em.execute<{ id: string }[]>(
    `insert into webhook_deliveries
       (id, endpoint_id, event_id, event_cursor, event_type, release_id, payload, payload_hash,
        status, attempts, next_attempt_at, created_at)
     values (gen_random_uuid(), ?, nextval('webhook_ping_event_seq'), 0, ?, null, ?::jsonb, ?,
             'pending', 0, ?, ?)
     returning id`,
    [
      endpoint.id,
      PING_EVENT_TYPE,
      JSON.stringify(payload),
      payloadHash(payload),
      leaseUntil(now, deps.timeoutSeconds),
      now,
    ],
  );
  const id = row!.id;
  const outcome = await sendWebhook(
    {
      id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      secret_sealed: endpoint.secretSealed,
      previous_secret_sealed: endpoint.previousSecretSealed ?? null,
      previous_secret_expires_at: endpoint.previousSecretExpiresAt ?? null,
      event_type: PING_EVENT_TYPE,
      payload,
      attempts: 0,
    },
    { ...deps, clock },
  );
  await em.execute(
    `update webhook_deliveries set status = ?, attempts = 1, next_attempt_at = null,
       response_status = ?, latency_ms = ?, last_error = ?, delivered_at = ?
     where id = ? and status = 'pending' and attempts = 0`,
    [
      outcome.ok ? 'succeeded' : 'failed',
      outcome.status,
      outcome.latencyMs,
      outcome.error,
      outcome.ok ? clock.now() : null,
      id,
    ],
  );
  return em.findOneOrFail(WebhookDelivery, id);
}
