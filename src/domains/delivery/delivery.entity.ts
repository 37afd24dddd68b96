import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Release } from '../releases/release.entity.ts';

export const DELIVERY_STATUSES = [
  'queued',
  'in_inspection',
  'delivered',
  'live',
  'takedown_requested',
  'taken_down',
  'rejected',
  'failed',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One release at one store. The durable schedule of its delivery lives here: `nextStepAt` is when the
 * store moves next (null = nothing scheduled), so a restarted worker resumes from the rows alone.
 */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    id: columns.id(),
    release: () => p.manyToOne(Release).deleteRule('cascade'),
    storeId: p.integer(),
    status: p.enum(DELIVERY_STATUSES).default('queued'),
    statusText: p.string().length(300),
    urlInStore: p.string().length(1000).nullable(),
    /** Why the store rejected or failed the delivery. */
    reason: p.text().nullable(),
    nextStepAt: p.datetime().nullable().index(),
    /** When the store first went live: day zero of the release's streams at this store (analytics). */
    liveAt: p.datetime().nullable(),
    /** The user-generated-content policy code delivered to stores 307/310/319. */
    ugcPolicy: p.string().length(50).nullable(),
    /** The last DDEX ERN NewReleaseMessage built for this store. */
    ddexMessage: p.text().nullable(),
    /** Queued by a distribute after submission: kept out of the aggregate until it is live. */
    addedAfterDistribution: p.boolean().default(false),
    /**
     * The status a store had when its takedown was requested: a pending takedown must not move the
     * aggregate, so the aggregate reads the store as it was until the store confirms.
     */
    statusBeforeTakedown: p.enum(DELIVERY_STATUSES).nullable(),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
  },
  uniques: [{ properties: ['release', 'storeId'] }],
});

export type Delivery = InferEntity<typeof Delivery>;
