import { p } from '@mikro-orm/core';
import { Account } from './account.entity.ts';

/**
 * The account a row belongs to: many-to-one, deleted with the account (ON DELETE CASCADE). In an
 * entity's properties, `account: () => owningAccount()`, refined where a table needs it
 * (`owningAccount().index()`); the thunk keeps `Account` resolved lazily, as relations are.
 */
export const owningAccount = () => p.manyToOne(Account).deleteRule('cascade');
