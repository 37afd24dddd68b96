export { dispatchEvent } from './dispatch.ts';
export { startWebhookDispatcher } from './dispatcher.ts';
export { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from './endpoints.ts';
export { WEBHOOK_DELIVERY_EVENT_TYPES } from './event-types.ts';
export { pingEndpoint } from './ping.ts';
export {
  DEFAULT_ROTATION_GRACE_SECONDS,
  MAX_ROTATION_GRACE_SECONDS,
  rotateEndpointSecret,
} from './rotation.ts';
export { sendDueWebhooks } from './send-due.ts';
export { startWebhookSender } from './sender.ts';
export {
  endpointView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookDeliveryView,
} from './views.ts';
export {
  DEFAULT_WEBHOOK_LOG_LIMIT,
  listWebhookDeliveries,
  MAX_WEBHOOK_LOG_LIMIT,
  pageOfWebhookDeliveries,
  redeliverWebhook,
} from './webhook-deliveries.ts';
export { WEBHOOK_DELIVERY_STATUSES, WebhookDelivery } from './webhook-delivery.entity.ts';
export { MAX_ENDPOINTS_PER_ACCOUNT, WebhookEndpoint } from './webhook-endpoint.entity.ts';
