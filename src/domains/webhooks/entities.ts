import { WebhookDelivery } from './webhook-delivery.entity.ts';
import { WebhookDispatchCursor } from './webhook-dispatch-cursor.entity.ts';
import { WebhookEndpoint } from './webhook-endpoint.entity.ts';

/** The webhooks domain's entities, for `src/entities.ts`. */
export const webhookEntities = [WebhookEndpoint, WebhookDelivery, WebhookDispatchCursor];
