import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';

/**
 * An allowlisted partner: an OAuth client (public, PKCE) that may create and authorize accounts
 * server-to-server, and the provenance tag put on every account it creates and release it submits.
 */
export const Partner = defineEntity({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: columns.id(),
    name: p.string().length(200),
    clientId: p.string().length(100).unique(),
    provenance: p.string().length(100),
    redirectUris: p.array(),
    disabledAt: p.datetime().nullable(),
    createdAt: columns.createdAt(),
  },
});

export type Partner = InferEntity<typeof Partner>;
