import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { modelKey, revokeGrantTokens } from './model-store.ts';

/** An OAuth client an account approved: one grant, with what it may do and when it was last used. */
export interface ConnectedApp {
  grantId: string;
  clientId: string;
  name: string;
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

interface Row {
  grant_id: string;
  payload: {
    clientId?: string;
    iat?: number;
    resources?: Record<string, string>;
    openid?: { scope?: string };
  };
  expires_at: Date | string | null;
  client_name: string | null;
  last_used_at: Date | string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/** The account's live grants, newest first; the client's registered name, or its id (a CIMD URL). */
export async function listConnectedApps(em: EntityManager, accountId: string): Promise<ConnectedApp[]> {
  const rows = await em.execute<Row[]>(
    `select g.grant_id, g.payload, g.expires_at, c.payload->>'client_name' as client_name,
            (select max(t.last_used_at) from access_tokens t where t.grant_id = g.grant_id) as last_used_at
       from oauth_models g
       left join oauth_models c on c.key = encode(sha256(('Client:' || (g.payload->>'clientId'))::bytea), 'hex')
      where g.kind = 'Grant' and g.account_id = ? and (g.expires_at is null or g.expires_at > now())
      order by (g.payload->>'iat')::bigint desc`,
    [accountId],
  );
  return rows.map((row) => {
    const scopes = new Set<string>();
    for (const scope of Object.values(row.payload.resources ?? {}))
      for (const s of scope.split(' ')) scopes.add(s);
    for (const s of (row.payload.openid?.scope ?? '').split(' ')) if (s) scopes.add(s);
    const clientId = row.payload.clientId ?? '';
    return {
      grantId: row.grant_id,
      clientId,
      name: row.client_name ?? clientId,
      scopes: [...scopes].filter(Boolean),
      connectedAt: new Date((row.payload.iat ?? 0) * 1000),
      lastUsedAt: date(row.last_used_at),
      expiresAt: date(row.expires_at),
    };
  });
}

/**
 * Disconnects an app: its grant, codes and refresh tokens are deleted and its access tokens revoked
 * (every instance's cache forgets them), so the agent's next call fails. Another account's grant is not
 * found.
 */
export async function disconnectApp(
  em: EntityManager,
  accountId: string,
  grantId: string,
  onRevoked: (tokenIds: string[]) => Promise<void>,
): Promise<void> {
  const [owned] = await em.execute<{ key: string }[]>(
    `select key from oauth_models where key = ? and kind = 'Grant' and account_id = ?`,
    [modelKey('Grant', grantId), accountId],
  );
  if (!owned) throw notFound('No such connected app on this account.', 'connected_app_not_found');
  await em.execute(`delete from oauth_models where grant_id = ?`, [grantId]);
  await revokeGrantTokens(em, grantId, onRevoked);
}
