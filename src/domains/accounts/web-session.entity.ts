import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Account } from './account.entity.ts';

/** A person signed in to the developer settings pages (cookie `tb_session`). */
export const WebSession = defineEntity({
  name: 'WebSession',
  tableName: 'web_sessions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    account: () => p.manyToOne(Account).deleteRule('cascade').index(),
    /** SHA-256 of the cookie's secret; the secret itself is never stored. */
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type WebSession = InferEntity<typeof WebSession>;
