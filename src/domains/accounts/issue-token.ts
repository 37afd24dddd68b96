import type { EntityManager } from '@mikro-orm/postgresql';
import { generateSecret, sha256Hex } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { AccessToken, type TokenKind } from './access-token.entity.ts';
import { Account } from './account.entity.ts';
import type { Scope } from './scopes.ts';
import { expiryDate, type TokenExpiry } from './token-expiry.ts';

export const TOKEN_PREFIX: Record<TokenKind, string> = {
  pat: 'svc_pat_',
  verified_email: 'svc_vet_',
  oauth: 'svc_oat_',
  agent_login: 'svc_alt_',
};

export interface IssueTokenInput {
  accountId: string;
  name: string;
  scopes: Scope[];
  expires: TokenExpiry;
  kind?: TokenKind;
  now?: Date;
  /** A lifetime other than the settings' choices (verified-email and agent sign-in tokens). */
  expiresAt?: Date;
}

export interface IssuedToken {
  /** The secret: returned here once, never stored. */
  token: string;
  record: AccessToken;
}

export async function issueToken(em: EntityManager, input: IssueTokenInput): Promise<IssuedToken> {
  const account = await em.findOne(Account, { id: input.accountId });
  if (!account) throw notFound('No such account.', 'account_not_found');
  const kind = input.kind ?? 'pat';
  const token = generateSecret(TOKEN_PREFIX[kind]);
  const now = input.now ?? new Date();
  const record = em.create(AccessToken, {
    account,
    kind,
    name: input.name,
    tokenHash: sha256Hex(token),
    displayPrefix: `${token.slice(0, TOKEN_PREFIX[kind].length + 4)}…`,
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expiresAt ?? expiryDate(input.expires, now),
    createdAt: now,
  });
  await em.flush();
  return { token, record };
}
