import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { AccessToken, SESSION_BOUND_KIND } from './access-token.entity.ts';

export const TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

export function tokenStatus(token: AccessToken, now = new Date()): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * The tokens a person manages: personal, verified-email and agent sign-in ones. OAuth access tokens (one
 * per hour per app) belong to their connected app and are listed and ended there (connected-apps.ts); a
 * dashboard page's token belongs to its web session and ends with it (web-sessions.ts).
 */
export async function listTokens(em: EntityManager, accountId: string): Promise<AccessToken[]> {
  return em.find(
    AccessToken,
    { account: accountId, kind: { $nin: ['oauth', SESSION_BOUND_KIND] } },
    { orderBy: { createdAt: 'desc' } },
  );
}

/**
 * Revocation is immediate: the next request with the token fails. Revoking twice is harmless. A
 * session's dashboard token is not one of the person's tokens: it ends with its session's sign-out.
 */
export async function revokeToken(em: EntityManager, accountId: string, tokenId: string, now = new Date()) {
  const token = await em.findOne(AccessToken, {
    id: tokenId,
    account: accountId,
    kind: { $ne: SESSION_BOUND_KIND },
  });
  if (!token) throw notFound('No such token on this account.', 'token_not_found');
  token.revokedAt ??= now;
  await em.flush();
  return token;
}

/** Operator revocation by token id, whatever the account. */
export async function revokeTokenById(em: EntityManager, tokenId: string, now = new Date()) {
  const token = await em.findOne(AccessToken, { id: tokenId });
  if (!token) throw notFound('No such token.', 'token_not_found');
  token.revokedAt ??= now;
  await em.flush();
  return token;
}
