import type { EntityManager } from '@mikro-orm/postgresql';
import { constantTimeEqual } from '../../platform/crypto.ts';
import { unauthenticated } from '../../platform/errors.ts';
import { AccessToken } from './access-token.entity.ts';
import type { Principal } from './principal.ts';
import { honouredScopes } from './scopes.ts';

/** last_used_at is a day-level fact for people; writing it on every request would cost a write per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Verifies the token whose SHA-256 is `hash` (the uncached read; VerifiedTokens caches it): its
 * principal, and when it expires. Missing, unknown, expired and revoked tokens all fail the same way
 * (401 authentication_error), with a message that says which without revealing more.
 */
export async function verifyTokenHash(
  em: EntityManager,
  hash: string,
  now = new Date(),
): Promise<{ principal: Principal; expiresAt: Date | null }> {
  const record = await em.findOne(AccessToken, { tokenHash: hash }, { disableIdentityMap: true });
  if (!record || !constantTimeEqual(record.tokenHash, hash))
    throw unauthenticated('The bearer token is invalid.');
  if (record.revokedAt) throw unauthenticated('The bearer token has been revoked.', 'token_revoked');
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) {
    throw unauthenticated('The bearer token has expired.', 'token_expired');
  }
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await em.nativeUpdate(AccessToken, { id: record.id }, { lastUsedAt: now });
  }
  return {
    principal: {
      accountId: record.account.id,
      scopes: honouredScopes(record.kind, record.scopes),
      tokenId: record.id,
      tokenKind: record.kind,
      audience: record.audience ?? null,
      provenance: record.provenance ?? null,
    },
    expiresAt: record.expiresAt ?? null,
  };
}
