import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

export const RELEASE_STATUSES = ['draft', 'submitted'] as const;

export const AGGREGATE_STATUSES = ['queued', 'pending', 'delivered', 'distributed', 'taken_down'] as const;
export type AggregateStatus = (typeof AGGREGATE_STATUSES)[number];

/** The payload of a draft or submission, after aliases: `{release, tracks, upload_requests?}`. */
export interface ReleasePayload {
  release: Record<string, unknown>;
  tracks: Record<string, unknown>[];
  upload_requests?: unknown[];
}

/**
 * A release from first draft to submission. The latest payload lives here; every save is also kept as
 * a snapshot. `revision` counts saves (optimistic concurrency with If-Match).
 */
export const Release = defineEntity({
  name: 'Release',
  tableName: 'releases',
  properties: {
    id: columns.id(),
    account: () => owningAccount(),
    status: p.enum(RELEASE_STATUSES).default('draft'),
    /** A chat conversation whose draft this is (agents), unique per account. */
    conversationId: p.string().length(200).nullable(),
    revision: p.integer().default(0),
    draftStatus: p.string().length(50).default('collecting'),
    payload: p.json<ReleasePayload>(),
    title: p.string().length(500).nullable(),
    primaryArtistName: p.string().length(500).nullable(),
    /** Target stores; null = all supported stores. */
    distributionStoreIds: p.json<number[] | null>().nullable(),
    /** Chosen UGC match policy per store id (307, 310, 319); a missing entry means the default. */
    ugcPolicies: p.json<Record<string, string>>().nullable(),
    tokenOffset: p.boolean().default(false),
    creditsSpent: p.integer().default(0),
    provenance: p.string().length(100).nullable(),
    aggregateStatus: p.enum(AGGREGATE_STATUSES).nullable(),
    upc: p.string().length(14).nullable(),
    submittedAt: p.datetime().nullable(),
    /**
     * The account's sandbox sample: a submitted release the sandbox made for test events when no release
     * was named (docs/webhooks.md, "Testing webhooks"). Never charged, never counted as a submission, never
     * delivered; at most one per account.
     */
    sandboxSample: p.boolean().default(false),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
  },
  indexes: [
    { properties: ['account', 'createdAt'] },
    // A search by UPC (release-search.ts): the column of a submitted release, the payload's of a draft.
    {
      name: 'releases_upc_lookup',
      expression: `create index "releases_upc_lookup" on "releases" ("account_id", (coalesce("upc", "payload" #>> '{release,upc}')))`,
    },
  ],
  uniques: [{ properties: ['account', 'conversationId'] }],
});

export type Release = InferEntity<typeof Release>;
