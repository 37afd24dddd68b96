export { dispatchEvent } from './dispatch.ts';
export { startWebhookDispatcher } from './dispatcher.ts';
export { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from './endpoints.ts';
export { sendDueWebhooks } from './send-due.ts';
export { startWebhookSender } from './sender.ts';
export {
  endpointView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookDeliveryView,
} from './views.ts';
export { listWebhookDeliveries, pageOfWebhookDeliveries, redeliverWebhook } from './webhook-deliveries.ts';
export { WebhookDelivery } from './webhook-delivery.entity.ts';
export { WebhookEndpoint } from './webhook-endpoint.entity.ts';
