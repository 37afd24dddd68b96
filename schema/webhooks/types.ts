import { RELEASE_EVENT_TYPES, type ReleaseEventType } from '../../src/domains/delivery/index.ts';
import {
  WEBHOOK_DELIVERY_EVENT_TYPES,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '../../src/domains/webhooks/index.ts';
import { builder } from '../builder.ts';
import { enumFromList } from '../enums.ts';
import { ReleaseEventTypeEnum } from '../events/release-events.ts';

const isReleaseEventType = (type: string): type is ReleaseEventType =>
  (RELEASE_EVENT_TYPES as readonly string[]).includes(type);

const WebhookDeliveryStatusEnum = enumFromList('WebhookDeliveryStatus', WEBHOOK_DELIVERY_STATUSES, {
  description: 'Where one delivery of an event to an endpoint stands.',
  valueDescriptions: {
    pending: 'Not delivered yet; retried on its schedule.',
    succeeded: 'The endpoint answered 2xx.',
    failed: 'Every attempt failed.',
    suppressed: 'Not sent: a duplicate, or the endpoint is disabled.',
  },
});

const WebhookEventTypeEnum = enumFromList('WebhookEventType', WEBHOOK_DELIVERY_EVENT_TYPES, {
  description:
    'What a delivery carries: a release event kind (as ReleaseEventType names them), or a test ping.',
  valueDescriptions: {
    ping: 'A test ping sent on request (pingWebhookEndpoint); no event of the stream.',
  },
});

export const WebhookEndpointRef = builder.objectRef<WebhookEndpointView>('WebhookEndpoint').implement({
  description:
    'A webhook endpoint. The signing secret is shown once, at creation or rotation, and never again.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.field({
      type: [ReleaseEventTypeEnum],
      description: 'Stored at creation; later event kinds need an update.',
      resolve: (endpoint) => endpoint.eventTypes.filter(isReleaseEventType),
    }),
    active: t.exposeBoolean('active'),
    failureCount: t.exposeInt('failureCount', {
      description: 'Consecutive failed deliveries; 20 disable the endpoint.',
    }),
    secretPrefix: t.exposeString('secretPrefix', {
      description: 'The first characters of the secret, to recognise it.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'After a rotation with a grace window: when the replaced secret stops signing deliveries beside ' +
        'the current one. Null when no window is open.',
      resolve: (endpoint, _args, context) =>
        endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > context.app.clock.now()
          ? endpoint.previousSecretExpiresAt
          : null,
    }),
  }),
});

export const WebhookDeliveryRef = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  description: 'One event sent (or to be sent) to one endpoint.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Also the x-svc-delivery and webhook-id headers, the same on every attempt.',
    }),
    endpointId: t.exposeID('endpointId'),
    eventId: t.id({
      description: 'The event of the stream; negative for a test ping, which is none.',
      resolve: (d) => String(d.eventId),
    }),
    eventCursor: t.string({ resolve: (d) => String(d.eventCursor) }),
    eventType: t.field({
      type: WebhookEventTypeEnum,
      resolve: (delivery) => delivery.eventType as (typeof WEBHOOK_DELIVERY_EVENT_TYPES)[number],
    }),
    releaseId: t.exposeID('releaseId', { nullable: true }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
  }),
});
