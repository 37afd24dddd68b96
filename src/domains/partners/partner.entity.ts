import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An allowlisted partner: an OAuth client (public, PKCE) that may create and authorize accounts
 * server-to-server, and the provenance tag put on every account it creates and release it submits.
 */
export const Partner = defineEntity({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(200),
    clientId: p.string().length(100).unique(),
    provenance: p.string().length(100),
    redirectUris: p.array(),
    disabledAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type Partner = InferEntity<typeof Partner>;
