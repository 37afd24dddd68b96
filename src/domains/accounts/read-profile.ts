import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';

/** The profile as `me` answers it: the account's short columns, read without hydrating an entity. */
export interface Profile {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdAt: Date;
  avatarKey: string | null;
  isInsider: boolean;
  isPatron: boolean;
  isAdmin: boolean;
}

const READ = `select id, email, first_name as "firstName", last_name as "lastName", created_at as "createdAt",
  avatar_key as "avatarKey", is_insider as "isInsider", is_patron as "isPatron", is_admin as "isAdmin"
from accounts where id = ?`;

/** `me` runs on every dashboard load and agent start: one indexed read of the columns it shows. */
export async function readProfile(em: EntityManager, accountId: string): Promise<Profile> {
  const [row] = await em.getConnection().execute<Profile[]>(READ, [accountId]);
  if (!row) throw notFound('No such account.', 'account_not_found');
  return { ...row, createdAt: new Date(row.createdAt) };
}
