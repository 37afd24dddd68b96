import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';

export const Account = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: columns.id(),
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
    createdAt: columns.createdAt(),
  },
  checks: [{ name: 'accounts_credit_balance_non_negative', expression: 'credit_balance >= 0' }],
});

export type Account = InferEntity<typeof Account>;
