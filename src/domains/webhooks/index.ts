export { listDeliveries, pageOfDeliveries, redeliver } from './deliveries.ts';
export { dispatchEvent } from './dispatch.ts';
export { startDispatcher } from './dispatcher.ts';
export { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from './endpoints.ts';
export { sendDueWebhooks } from './send-due.ts';
export { startWebhookSender } from './sender.ts';
export { deliveryView, endpointView, type WebhookDeliveryView, type WebhookEndpointView } from './views.ts';
export { WebhookDelivery } from './webhook-delivery.entity.ts';
export { WebhookEndpoint } from './webhook-endpoint.entity.ts';
