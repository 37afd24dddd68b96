import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { Account } from './account.entity.ts';

export async function getAccount(em: EntityManager, accountId: string): Promise<Account> {
  const account = await em.findOne(Account, { id: accountId });
  if (!account) throw notFound('No such account.', 'account_not_found');
  return account;
}

export async function findAccountByEmail(em: EntityManager, email: string): Promise<Account | null> {
  return em.findOne(Account, { email: email.trim().toLowerCase() });
}
