import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const DISPATCH_CURSOR_ID = 'dispatcher';

/**
 * Where the webhook dispatcher is in the published event stream (one row, id 'dispatcher'): every
 * event with a cursor up to this one has been fanned out. Only ever moved forward (greatest()).
 */
export const WebhookDispatchCursor = defineEntity({
  name: 'WebhookDispatchCursor',
  tableName: 'webhook_dispatch_cursor',
  properties: {
    id: p.string().length(50).primary(),
    cursor: p.bigint('number'),
  },
});

export type WebhookDispatchCursor = InferEntity<typeof WebhookDispatchCursor>;
