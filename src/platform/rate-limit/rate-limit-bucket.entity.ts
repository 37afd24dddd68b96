import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The table rate-limiter-flexible's PostgreSQL store uses (its own layout), created by our migrations
 * rather than at run time.
 */
export const RateLimitBucket = defineEntity({
  name: 'RateLimitBucket',
  tableName: 'rate_limits',
  properties: {
    key: p.string().length(255).primary(),
    points: p.integer().default(0),
    expire: p.bigint('number').nullable(),
  },
});

export type RateLimitBucket = InferEntity<typeof RateLimitBucket>;
