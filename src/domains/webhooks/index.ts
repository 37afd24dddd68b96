export {
  type DeliverDeps,
  type DeliverResult,
  deliverDue,
  MAX_ATTEMPTS,
  RETRY_BACKOFF_SECONDS,
} from './deliver.ts';
export {
  DEFAULT_DELIVERY_LOG_LIMIT,
  listDeliveries,
  MAX_DELIVERY_LOG_LIMIT,
  pageOfDeliveries,
  redeliver,
} from './deliveries.ts';
export { type DeliveryWorkerOptions, startDeliveryWorker } from './delivery-worker.ts';
export { type DispatchResult, DUPLICATE_WINDOW_SECONDS, dispatchEvent, dispatchEvents } from './dispatch.ts';
export { type Dispatcher, type DispatcherOptions, startDispatcher } from './dispatcher.ts';
export {
  type CreateEndpointInput,
  type CreateEndpointOptions,
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  type UpdateEndpointInput,
  updateEndpoint,
  WEBHOOK_SECRET_PREFIX,
} from './endpoints.ts';
export { webhookEntities } from './entities.ts';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.ts';
export { signBody, signTimestamped, WEBHOOK_USER_AGENT, webhookHeaders } from './signature.ts';
export { deliveryView, endpointView, type WebhookDeliveryView, type WebhookEndpointView } from './views.ts';
export { WebhookDelivery } from './webhook-delivery.entity.ts';
export {
  AUTO_DISABLE_AFTER_FAILURES,
  MAX_ENDPOINTS_PER_ACCOUNT,
  WebhookEndpoint,
} from './webhook-endpoint.entity.ts';
