import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

/** The most endpoints one account may register. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 5;
/** Consecutive failed deliveries (retries exhausted) after which an endpoint is disabled. */
export const AUTO_DISABLE_AFTER_FAILURES = 20;

/**
 * A URL an account wants events POSTed to. The signing secret is stored sealed (AES-256-GCM,
 * `src/platform/secret-box.ts`): signing needs the raw secret, and no API ever returns it after
 * creation; `secretPrefix` is its first characters, for display. After a rotation with a grace window
 * the secret it replaced is kept, sealed the same way, until `previousSecretExpiresAt`: deliveries are
 * signed by both until then, and by the current one only after (`docs/webhooks.md`, "Rotating the
 * secret").
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    url: p.text(),
    description: p.string().length(500).nullable(),
    eventTypes: p.array(),
    active: p.boolean().default(true),
    /** Consecutive failed deliveries; reset by a success or by re-enabling. */
    failureCount: p.integer().default(0),
    secretSealed: p.text().lazy(),
    secretPrefix: p.string().length(20),
    /** The secret a rotation replaced, still signing until `previousSecretExpiresAt`; null when none. */
    previousSecretSealed: p.text().lazy().nullable(),
    /** The end of the rotation's grace window; past it the previous secret is no longer used. */
    previousSecretExpiresAt: p.datetime().nullable(),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
    /** When the endpoint last became inactive (auto-disabled or PATCH active false). */
    disabledAt: p.datetime().nullable(),
  },
});

export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
