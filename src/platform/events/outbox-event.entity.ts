import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../db/columns.ts';

/**
 * The outbox: an event is written in the same transaction as the state change it describes. The relay
 * publishes rows in commit order and only then gives each its `cursor`, the position subscribers
 * resume from (a sequence id is not commit order; a cursor assigned at publication is).
 */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  properties: {
    id: p.bigint('number').autoincrement().primary(),
    accountId: p.uuid().index(),
    releaseId: p.uuid().nullable().index(),
    type: p.string().length(100),
    payload: p.json<Record<string, unknown>>(),
    createdAt: columns.createdAt(),
    /** Assigned by the relay at publication, increasing in publication order; null until then. */
    cursor: p.bigint('number').nullable().unique(),
    publishedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['accountId', 'cursor'] }],
});

export type OutboxEvent = InferEntity<typeof OutboxEvent>;
