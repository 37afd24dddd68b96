import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from './owning-account.ts';

/** A person signed in to the developer settings pages (cookie `tb_session`). */
export const WebSession = defineEntity({
  name: 'WebSession',
  tableName: 'web_sessions',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    /** SHA-256 of the cookie's secret; the secret itself is never stored. */
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().index(),
    createdAt: columns.createdAt(),
  },
});

export type WebSession = InferEntity<typeof WebSession>;
