import type { EntityManager } from '@mikro-orm/postgresql';
import { generateSecret, sha256Hex } from '../../platform/crypto.ts';
import { WebSession } from './web-session.entity.ts';

/** A settings session lasts this long from sign-in (no sliding renewal: sign in again). */
export const WEB_SESSION_TTL_MS = 12 * 3_600_000;

export async function startWebSession(
  em: EntityManager,
  accountId: string,
  now = new Date(),
): Promise<{ secret: string; id: string; expiresAt: Date }> {
  const secret = generateSecret('svc_web_');
  const session = em.create(WebSession, {
    account: accountId,
    tokenHash: sha256Hex(secret),
    expiresAt: new Date(now.getTime() + WEB_SESSION_TTL_MS),
    createdAt: now,
  });
  await em.flush();
  return { secret, id: session.id, expiresAt: session.expiresAt };
}

/** The session of a cookie's secret, if it exists and has not expired. */
export async function findWebSession(
  em: EntityManager,
  secret: string,
  now = new Date(),
): Promise<{ id: string; accountId: string } | null> {
  const [row] = await em.execute<{ id: string; account_id: string }[]>(
    'select id, account_id from web_sessions where token_hash = ? and expires_at > ?',
    [sha256Hex(secret), now],
  );
  return row ? { id: row.id, accountId: row.account_id } : null;
}

export async function endWebSession(em: EntityManager, secret: string): Promise<void> {
  await em.execute('delete from web_sessions where token_hash = ?', [sha256Hex(secret)]);
}
