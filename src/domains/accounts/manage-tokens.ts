import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { AccessToken } from './access-token.entity.ts';

export const TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

export function tokenStatus(token: AccessToken, now = new Date()): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * The tokens a person manages: personal and verified-email ones. OAuth access tokens (one per hour per
 * app) belong to their connected app and are listed and ended there (connected-apps.ts).
 */
export async function listTokens(em: EntityManager, accountId: string): Promise<AccessToken[]> {
  return em.find(
    AccessToken,
    { account: accountId, kind: { $ne: 'oauth' } },
    { orderBy: { createdAt: 'desc' } },
  );
}

/** Revocation is immediate: the next request with the token fails. Revoking twice is harmless. */
export async function revokeToken(em: EntityManager, accountId: string, tokenId: string, now = new Date()) {
  const token = await em.findOne(AccessToken, { id: tokenId, account: accountId });
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
