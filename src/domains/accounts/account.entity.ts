import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const Account = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    email: p.string().length(320).unique(),
    firstName: p.string().length(200).nullable(),
    lastName: p.string().length(200).nullable(),
    /** Storage key of the avatar image; the API hands out a signed URL, never the key. */
    avatarKey: p.string().length(500).nullable(),
    isInsider: p.boolean().default(false),
    isPatron: p.boolean().default(false),
    isAdmin: p.boolean().default(false),
    provenance: p.string().length(100).nullable(),
    /** argon2id PHC string (docs/oauth.md); null: the account cannot sign in with a password. */
    passwordHash: p.string().length(200).nullable().lazy(),
    /** Current credit balance; changed only together with a credit_transactions row. */
    creditBalance: p.integer().default(0),
    creditsUpdatedAt: p.datetime().onCreate(() => new Date()),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  checks: [{ name: 'accounts_credit_balance_non_negative', expression: 'credit_balance >= 0' }],
});

export type Account = InferEntity<typeof Account>;
