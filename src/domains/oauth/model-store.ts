import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../platform/crypto.ts';
import { open, seal } from '../../platform/secret-box.ts';

/** The storage interface oidc-provider asks of an adapter (one instance per model kind). */
export interface OAuthAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export interface OAuthStoreOptions {
  em: () => EntityManager;
  /** Seals the one id that must be read back (a session's, found by its uid); nothing else is sealed. */
  sealKey: Uint8Array;
  /** Access tokens just revoked (by id in access_tokens): the verified-token caches forget them. */
  onRevoked: (tokenIds: string[]) => Promise<void>;
}

/** The row key: ids of codes and tokens are their secrets, so only a hash of them is stored. */
export const modelKey = (kind: string, id: string) => sha256Hex(`${kind}:${id}`);

const SEALED = 'sealed:';

/** Marks a payload whose `jti` (the id, not stored) is put back on reading. */
const ID_ELIDED = '';

interface Row {
  payload: Record<string, unknown>;
  consumed_at: Date | string | null;
}

const epoch = (date: Date | string) => Math.floor(new Date(date).getTime() / 1000);

/**
 * oidc-provider's models in PostgreSQL (table oauth_models). Access tokens are also written to
 * access_tokens (kind `oauth`), keyed by their SHA-256 like personal access tokens, so that one piece of
 * code (authenticate.ts) verifies every bearer token and revoking a grant revokes its tokens there too.
 */
export function oauthAdapterClass(options: OAuthStoreOptions): new (kind: string) => OAuthAdapter {
  return class PostgresOAuthAdapter implements OAuthAdapter {
    private readonly kind: string;

    constructor(kind: string) {
      this.kind = kind;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const em = options.em();
      const stored: Record<string, unknown> = { ...payload };
      if ('jti' in stored) stored.jti = ID_ELIDED;
      if (this.kind === 'Session') stored.sealedJti = seal(id, options.sealKey);
      // A confidential client's secret must be compared in clear, so it is sealed rather than hashed.
      if (this.kind === 'Client' && typeof stored.client_secret === 'string') {
        stored.client_secret = `${SEALED}${seal(stored.client_secret, options.sealKey)}`;
      }
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const str = (value: unknown) => (typeof value === 'string' ? value : null);
      const accountId = str(payload.accountId);
      await em.execute(
        `insert into oauth_models (key, kind, payload, grant_id, uid, account_id, expires_at)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict (key) do update set payload = excluded.payload, grant_id = excluded.grant_id,
           uid = excluded.uid, account_id = excluded.account_id, expires_at = excluded.expires_at`,
        [
          modelKey(this.kind, id),
          this.kind,
          JSON.stringify(stored),
          // A grant's own row carries its id here too, so disconnecting an app deletes it with its tokens.
          this.kind === 'Grant' ? id : str(payload.grantId),
          str(payload.uid),
          accountId && isUuid(accountId) ? accountId : null,
          expiresAt,
        ],
      );
      if (this.kind === 'AccessToken' && accountId && isUuid(accountId)) {
        await recordAccessToken(em, id, payload, expiresAt);
      }
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      const [row] = await options.em().execute<Row[]>(
        `select payload, consumed_at from oauth_models
            where key = ? and (expires_at is null or expires_at > now())`,
        [modelKey(this.kind, id)],
      );
      return row ? this.restore(row, id) : undefined;
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      const [row] = await options.em().execute<Row[]>(
        `select payload, consumed_at from oauth_models
            where kind = ? and uid = ? and (expires_at is null or expires_at > now()) limit 1`,
        [this.kind, uid],
      );
      if (!row) return undefined;
      const sealed = row.payload.sealedJti;
      return typeof sealed === 'string' ? this.restore(row, open(sealed, options.sealKey)) : undefined;
    }

    /** Device codes are not enabled. */
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await options
        .em()
        .execute(`update oauth_models set consumed_at = now() where key = ? and consumed_at is null`, [
          modelKey(this.kind, id),
        ]);
    }

    async destroy(id: string): Promise<void> {
      const em = options.em();
      await em.execute(`delete from oauth_models where key = ?`, [modelKey(this.kind, id)]);
      if (this.kind === 'AccessToken') {
        const revoked = await em.execute<{ id: string }[]>(
          `update access_tokens set revoked_at = now() where token_hash = ? and revoked_at is null returning id`,
          [sha256Hex(id)],
        );
        await options.onRevoked(revoked.map((row) => row.id));
      }
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const em = options.em();
      await em.execute(`delete from oauth_models where kind = ? and grant_id = ?`, [this.kind, grantId]);
      if (this.kind === 'AccessToken') await revokeGrantTokens(em, grantId, options.onRevoked);
    }

    private restore(row: Row, id: string): Record<string, unknown> {
      const { sealedJti: _sealed, ...payload } = row.payload;
      const secret = payload.client_secret;
      if (typeof secret === 'string' && secret.startsWith(SEALED)) {
        payload.client_secret = open(secret.slice(SEALED.length), options.sealKey);
      }
      if (payload.jti === ID_ELIDED) payload.jti = id;
      if (row.consumed_at) payload.consumed = epoch(row.consumed_at);
      return payload;
    }
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

/** The access_tokens row of an OAuth access token: what authenticate.ts reads for every request. */
async function recordAccessToken(
  em: EntityManager,
  token: string,
  payload: Record<string, unknown>,
  expiresAt: Date | null,
): Promise<void> {
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const audience = typeof payload.aud === 'string' ? payload.aud : null;
  const clientId = typeof payload.clientId === 'string' ? payload.clientId : 'unknown client';
  const [client] = await em.execute<{ name: string | null; provenance: string | null }[]>(
    `select payload->>'client_name' as name,
       (select provenance from partners where client_id = ? and disabled_at is null) as provenance
     from oauth_models where key = ?`,
    [clientId, modelKey('Client', clientId)],
  );
  await em.execute(
    `insert into access_tokens (id, account_id, kind, name, token_hash, display_prefix, scopes, expires_at,
       grant_id, audience, provenance, created_at)
     values (?, ?, 'oauth', ?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict (token_hash) do nothing`,
    [
      randomUUID(),
      payload.accountId,
      (client?.name ?? clientId).slice(0, 200),
      sha256Hex(token),
      `${token.slice(0, 4)}…`,
      `{${scopes.map((scope) => `"${scope}"`).join(',')}}`,
      expiresAt,
      typeof payload.grantId === 'string' ? payload.grantId : null,
      audience,
      client?.provenance ?? null,
    ],
  );
}

/** Revokes every access token a grant issued, in this process's cache and announced to the others. */
export async function revokeGrantTokens(
  em: EntityManager,
  grantId: string,
  onRevoked: (tokenIds: string[]) => Promise<void>,
): Promise<void> {
  const revoked = await em.execute<{ id: string }[]>(
    `update access_tokens set revoked_at = now() where grant_id = ? and revoked_at is null returning id`,
    [grantId],
  );
  await onRevoked(revoked.map((row) => row.id));
}
