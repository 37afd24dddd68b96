import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from '../accounts/owning-account.ts';

/** An `Idempotency-Key` seen on a submission: the same key with the same body replays its release. */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    account: () => owningAccount().primary(),
    key: p.string().length(255).primary(),
    requestHash: p.string().length(64),
    releaseId: p.uuid(),
    createdAt: columns.createdAt().index(),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
