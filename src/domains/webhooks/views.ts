import type { WebhookDelivery } from './webhook-delivery.entity.ts';
import type { WebhookEndpoint } from './webhook-endpoint.entity.ts';

/** An endpoint as every read shows it: never the secret, only its first characters. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  active: boolean;
  failureCount: number;
  secretPrefix: string;
  createdAt: Date;
  updatedAt: Date;
  disabledAt: Date | null;
  /** The end of the grace window of the secret the last rotation replaced (past or not); null when none. */
  previousSecretExpiresAt: Date | null;
}

export function endpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description ?? null,
    eventTypes: [...endpoint.eventTypes],
    active: endpoint.active,
    failureCount: endpoint.failureCount,
    secretPrefix: endpoint.secretPrefix,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    disabledAt: endpoint.disabledAt ?? null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt ?? null,
  };
}

/** One row of the delivery log. */
export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  eventId: number;
  eventCursor: number;
  eventType: string;
  releaseId: string | null;
  status: WebhookDelivery['status'];
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export function webhookDeliveryView(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpointId: delivery.endpoint.id,
    eventId: delivery.eventId,
    eventCursor: delivery.eventCursor,
    eventType: delivery.eventType,
    releaseId: delivery.releaseId ?? null,
    status: delivery.status,
    attempts: delivery.attempts,
    responseStatus: delivery.responseStatus ?? null,
    latencyMs: delivery.latencyMs ?? null,
    lastError: delivery.lastError ?? null,
    nextAttemptAt: delivery.nextAttemptAt ?? null,
    createdAt: delivery.createdAt,
    deliveredAt: delivery.deliveredAt ?? null,
  };
}
