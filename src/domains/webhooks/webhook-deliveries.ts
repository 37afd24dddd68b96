import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, type Page, type PageArgs } from '../../platform/db/keyset.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import { findOwnEndpoint } from './endpoints.ts';
import { WebhookDelivery } from './webhook-delivery.entity.ts';

export const DEFAULT_WEBHOOK_LOG_LIMIT = 20;
export const MAX_WEBHOOK_LOG_LIMIT = 100;

/** The delivery log: an endpoint's latest webhook deliveries, newest first (404 unless the caller's). */
export async function listWebhookDeliveries(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  limit = DEFAULT_WEBHOOK_LOG_LIMIT,
): Promise<WebhookDelivery[]> {
  const endpoint = await findOwnEndpoint(em, accountId, endpointId);
  const take = Math.min(Math.max(Math.trunc(limit) || DEFAULT_WEBHOOK_LOG_LIMIT, 1), MAX_WEBHOOK_LOG_LIMIT);
  return em.find(
    WebhookDelivery,
    { endpoint: endpoint.id },
    { orderBy: { createdAt: 'desc', eventCursor: 'desc' }, limit: take },
  );
}

/** The delivery log as keyset pages, newest first (404 unless the caller's endpoint). */
export async function pageOfWebhookDeliveries(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  args: PageArgs,
): Promise<Page<WebhookDelivery>> {
  const endpoint = await findOwnEndpoint(em, accountId, endpointId);
  return keysetPage(em, WebhookDelivery, { endpoint: endpoint.id }, args);
}

/**
 * Sends one webhook delivery again. The row is reused (UNIQUE (endpoint, event) keeps one row per endpoint and
 * event): it goes back to `pending` with attempts 0, due now, and the usual retries apply. The
 * `x-svc-delivery` id is therefore the same as before — a receiver that processed it may ignore it.
 * Any status can be redelivered (also `suppressed`); a disabled endpoint must be re-enabled first.
 */
export async function redeliverWebhook(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  deliveryId: string,
  now: Date = new Date(),
): Promise<WebhookDelivery> {
  const endpoint = await findOwnEndpoint(em, accountId, endpointId);
  const delivery = isUuid(deliveryId)
    ? await em.findOne(WebhookDelivery, { id: deliveryId, endpoint: endpoint.id })
    : null;
  if (!delivery) throw notFound('No delivery with this id for this endpoint.', 'webhook_delivery_not_found');
  if (!endpoint.active) {
    throw conflict('The endpoint is disabled; re-enable it (active: true) first.', 'webhook_disabled');
  }
  delivery.status = 'pending';
  delivery.attempts = 0;
  delivery.nextAttemptAt = now;
  delivery.lastError = null;
  delivery.responseStatus = null;
  delivery.latencyMs = null;
  delivery.deliveredAt = null;
  await em.flush();
  return delivery;
}
