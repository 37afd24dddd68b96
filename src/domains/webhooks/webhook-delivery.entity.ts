import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { WebhookEndpoint } from './webhook-endpoint.entity.ts';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'suppressed'] as const;

/**
 * One event for one endpoint: the durable delivery job and its log entry. UNIQUE (endpoint, eventId)
 * makes the fan-out idempotent, so several dispatchers (one per process) create one row per endpoint
 * and event. `nextAttemptAt` is the schedule (null = nothing to do); workers claim due rows with
 * SKIP LOCKED.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: columns.id(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    /** The outbox row (`outbox_events.id`). */
    eventId: p.bigint('number'),
    eventCursor: p.bigint('number'),
    eventType: p.string().length(100),
    releaseId: p.uuid().nullable(),
    /** The exact JSON body sent (the event payload). */
    payload: p.json<Record<string, unknown>>(),
    /** SHA-256 of the payload without `occurredAt` (canonical JSON): duplicate suppression. */
    payloadHash: p.string().length(64),
    status: p.enum(WEBHOOK_DELIVERY_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    responseStatus: p.integer().nullable(),
    latencyMs: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: columns.createdAt(),
    deliveredAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['endpoint', 'eventId'] }],
  indexes: [
    // The claim's order over pending rows only: a claim reads its LIMIT rows off this index instead of
    // sorting every due row, and finished rows leave it.
    {
      name: 'webhook_deliveries_due_idx',
      properties: ['nextAttemptAt', 'eventCursor'],
      where: "status = 'pending'",
    },
    { properties: ['endpoint', 'createdAt'] },
    { properties: ['endpoint', 'releaseId', 'payloadHash'] },
  ],
});

export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
