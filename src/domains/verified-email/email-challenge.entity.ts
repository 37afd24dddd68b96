import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';

/**
 * A one-time code mailed to an address (docs/partners.md, verified-email flow). Only a keyed hash of the
 * code is kept; a challenge is spent by a claim, by its fifth wrong code, or by a newer challenge.
 */
export const EmailChallenge = defineEntity({
  name: 'EmailChallenge',
  tableName: 'email_challenges',
  properties: {
    id: columns.id(),
    email: p.string().length(320).index(),
    codeHash: p.string().length(64),
    clientName: p.string().length(200),
    scopes: p.array(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    spentAt: p.datetime().nullable(),
    createdAt: columns.createdAt(),
  },
});

export type EmailChallenge = InferEntity<typeof EmailChallenge>;
