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
  dashboard: 'svc_dst_',
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

/** A token answered once to its client, with the lifetime it was given. */
export interface BearerToken {
  accessToken: string;
  tokenType: 'Bearer';
  scope: string;
  expiresAt: Date;
}

/** Issues a token living `lifetimeMs` from `now` (not one of the settings' choices) as a bearer answer. */
export async function issueBearerToken(
  em: EntityManager,
  input: Omit<IssueTokenInput, 'expires' | 'expiresAt' | 'now'> & { now: Date; lifetimeMs: number },
): Promise<BearerToken> {
  const { lifetimeMs, ...rest } = input;
  const issued = await issueToken(em, {
    ...rest,
    expires: 'none',
    expiresAt: new Date(input.now.getTime() + lifetimeMs),
  });
  return {
    accessToken: issued.token,
    tokenType: 'Bearer',
    scope: issued.record.scopes.join(' '),
    expiresAt: issued.record.expiresAt!,
  };
}
