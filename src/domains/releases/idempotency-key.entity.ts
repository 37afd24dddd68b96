import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/index.ts';

/** An `Idempotency-Key` seen on a submission: the same key with the same body replays its release. */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    account: () => p.manyToOne(Account).primary().deleteRule('cascade'),
    key: p.string().length(255).primary(),
    requestHash: p.string().length(64),
    releaseId: p.uuid(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
