import type { EntityManager } from '@mikro-orm/postgresql';
import { generateSecret, sha256Hex } from '../../platform/crypto.ts';
import { open, seal } from '../../platform/secret-box.ts';
import { AccessToken, SESSION_BOUND_KIND } from './access-token.entity.ts';
import { issueToken } from './issue-token.ts';
import { WebSession } from './web-session.entity.ts';

/** A web session lasts this long from sign-in (no sliding renewal: sign in again). */
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

interface FoundWebSession {
  id: string;
  accountId: string;
  expiresAt: Date;
}

/** The session of a cookie's secret, if it exists and has not expired. */
export async function findWebSession(
  em: EntityManager,
  secret: string,
  now = new Date(),
): Promise<FoundWebSession | null> {
  const [row] = await em.execute<{ id: string; account_id: string; expires_at: Date }[]>(
    'select id, account_id, expires_at from web_sessions where token_hash = ? and expires_at > ?',
    [sha256Hex(secret), now],
  );
  return row ? { id: row.id, accountId: row.account_id, expiresAt: new Date(row.expires_at) } : null;
}

/**
 * Ends the session of a cookie's secret: its row goes, and its dashboard token is revoked in the same
 * statement. Answers the revoked token's id (for the caches of verified tokens), if it had one.
 */
export async function endWebSession(
  em: EntityManager,
  secret: string,
  now = new Date(),
): Promise<{ revokedTokenId: string | null }> {
  const rows = await em.execute<{ id: string }[]>(
    `with gone as (delete from web_sessions where token_hash = ? returning dashboard_token_id)
     update access_tokens set revoked_at = coalesce(revoked_at, ?)
      where id in (select dashboard_token_id from gone) returning id`,
    [sha256Hex(secret), now],
  );
  return { revokedTokenId: rows[0]?.id ?? null };
}

export interface SessionToken {
  /** The bearer secret, for the page's script only. */
  token: string;
  expiresAt: Date;
}

interface SessionTokenRow {
  account_id: string;
  expires_at: Date;
  dashboard_token_id: string | null;
  dashboard_token_sealed: string | null;
  token_usable: boolean | null;
}

/**
 * The session's dashboard token: an access token of kind `dashboard` with `svc:mcp` only, expiring
 * with the session. The first call mints it (stored hashed, sealed with `key` in the session's row);
 * later calls open the sealed copy while the token still works, and mint a new one when it was revoked
 * or the key changed. Two first pages at once mint one token each, and one of them is kept. Null when
 * the session has ended.
 */
export async function sessionToken(
  em: EntityManager,
  sessionId: string,
  key: Uint8Array,
  now = new Date(),
): Promise<SessionToken | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await em.execute<SessionTokenRow[]>(
      `select s.account_id, s.expires_at, s.dashboard_token_id, s.dashboard_token_sealed,
              (t.revoked_at is null and t.expires_at > ?) as token_usable
         from web_sessions s left join access_tokens t on t.id = s.dashboard_token_id
        where s.id = ? and s.expires_at > ?`,
      [now, sessionId, now],
    );
    if (!row) return null;
    const expiresAt = new Date(row.expires_at);
    if (row.dashboard_token_sealed && row.token_usable) {
      const token = openOrNull(row.dashboard_token_sealed, key);
      if (token) return { token, expiresAt };
    }
    const issued = await issueToken(em, {
      accountId: row.account_id,
      kind: SESSION_BOUND_KIND,
      name: 'Dashboard session',
      scopes: ['svc:mcp'],
      expires: 'none',
      expiresAt,
      now,
    });
    // Kept only if no other page replaced the token this call read meanwhile.
    const claimed = await em.nativeUpdate(
      WebSession,
      { id: sessionId, dashboardToken: row.dashboard_token_id },
      { dashboardToken: issued.record.id, dashboardTokenSealed: seal(issued.token, key) },
    );
    if (claimed === 1) return { token: issued.token, expiresAt };
    await em.nativeUpdate(AccessToken, { id: issued.record.id }, { revokedAt: now });
  }
  throw new Error('The session token kept changing under this page: too many pages at once.');
}

function openOrNull(sealed: string, key: Uint8Array): string | null {
  try {
    return open(sealed, key);
  } catch {
    return null; // sealed under another key (WEBHOOK_SECRET_KEY changed): a new token replaces it
  }
}

/** Dashboard tokens past use (expired, or revoked at sign-out) are deleted by the sweep. */
export async function pruneSessionTokens(em: EntityManager, now = new Date()): Promise<number> {
  const rows = await em.execute<{ count: string }[]>(
    `with gone as (delete from access_tokens where kind = ? and (expires_at <= ? or revoked_at is not null)
       returning 1) select count(*) from gone`,
    [SESSION_BOUND_KIND, now],
  );
  return Number(rows[0]?.count ?? 0);
}
