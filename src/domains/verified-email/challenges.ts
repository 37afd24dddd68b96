import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { constantTimeEqual } from '../../platform/crypto.ts';
import { invalidRequest } from '../../platform/errors.ts';
import { type QueueDefinition, sendInTransaction } from '../../platform/jobs/index.ts';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import {
  Account,
  type BearerToken,
  DEFAULT_SCOPES,
  isScope,
  issueBearerToken,
  normaliseEmail,
  PAT_ONLY_SCOPES,
  SCOPES,
  type Scope,
} from '../accounts/index.ts';
import type { Mailer } from '../mail/index.ts';
import { codeMail } from './code-mail.ts';
import { EmailChallenge } from './email-challenge.entity.ts';

export const CODE_TTL_SECONDS = 15 * 60;
export const MAX_ATTEMPTS = 5;
export const CODE_DIGITS = 8;
/** Lifetime of a claimed token (revocable at any time in developer settings). */
export const VERIFIED_TOKEN_TTL_DAYS = 90;
export const DEFAULT_CLIENT_NAME = 'Verified-email agent';

export const CHALLENGES_PER_IP: LimitRule = { name: 'email-challenge-ip', points: 60, windowSeconds: 3600 };
export const CHALLENGES_PER_EMAIL: LimitRule = {
  name: 'email-challenge-email',
  points: 5,
  windowSeconds: 3600,
};
export const CLAIMS_PER_IP: LimitRule = { name: 'email-claim-ip', points: 60, windowSeconds: 900 };
export const CLAIMS_PER_EMAIL: LimitRule = { name: 'email-claim-email', points: 15, windowSeconds: 900 };

/** The mailing happens in a job: the request does the same work whether or not the account exists. */
export const CHALLENGE_QUEUE = 'verified-email.challenge';
export const challengeQueue: QueueDefinition = {
  name: CHALLENGE_QUEUE,
  policy: 'standard',
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  expireInSeconds: 300,
  notify: true,
};

export interface ChallengeJob {
  email: string;
  clientName: string;
  scopes: Scope[];
}

/** The key of the codes' hashes, derived from the server's secret key (never the key itself). */
export const codeKey = (secretKey: Uint8Array) =>
  createHmac('sha256', secretKey).update('verified-email-codes').digest();

const codeHash = (key: Buffer, challengeId: string, code: string) =>
  createHmac('sha256', key).update(`${challengeId}:${code}`).digest('hex');

/** What a verified-email token may carry: the scopes not kept for PATs. */
const CLAIMABLE_SCOPES = SCOPES.filter((scope) => !PAT_ONLY_SCOPES.includes(scope));

function checkScopes(scopes: readonly string[] | null | undefined): Scope[] {
  if (!scopes || scopes.length === 0) return DEFAULT_SCOPES;
  const refused = scopes.filter((scope) => !(CLAIMABLE_SCOPES as readonly string[]).includes(scope));
  if (refused.length > 0) {
    const pat = refused.filter((scope) => isScope(scope));
    throw invalidRequest(
      pat.length > 0
        ? `${pat.join(', ')} is granted only to personal access tokens, which the account holder creates in developer settings (/settings). Ask for svc:mcp, or leave scopes out.`
        : `Unknown scope(s): ${refused.join(', ')}. A verified-email token carries svc:mcp.`,
      [{ path: 'scopes', message: pat.length > 0 ? 'not grantable by email' : 'unknown scope' }],
      'invalid_scope',
    );
  }
  return [...new Set(scopes)] as Scope[];
}

/**
 * POST /agent-auth/verified-email/challenge: checks the input, counts the request (per IP, per email)
 * and queues the mail. Nothing here reads the accounts table, so the answer, its headers and its time
 * are the same for a known and an unknown address.
 */
export async function requestChallenge(
  em: EntityManager,
  limits: RateLimits,
  input: { email: string; clientName?: string | null; scopes?: readonly string[] | null; ip: string },
): Promise<{ expiresIn: number }> {
  const email = normaliseEmail(input.email);
  const scopes = checkScopes(input.scopes);
  const clientName = input.clientName?.trim() || DEFAULT_CLIENT_NAME;
  await limits.consume(CHALLENGES_PER_IP, input.ip, 'Too many code requests from this address.');
  await limits.consume(CHALLENGES_PER_EMAIL, email, 'Too many code requests for this email address.');
  await em.transactional((tem) =>
    sendInTransaction(tem, CHALLENGE_QUEUE, { email, clientName, scopes } satisfies ChallengeJob),
  );
  return { expiresIn: CODE_TTL_SECONDS };
}

/**
 * The job: every address gets a fresh challenge that replaces any earlier one, so a claim counts its
 * attempts and closes after the fifth wrong code whether or not the address has an account. Only an
 * account's code is drawn from the 8 digits and mailed; an unknown address's challenge hashes a random
 * 128-bit secret that is never sent and that no 8-digit code can match.
 */
export async function issueChallenge(
  em: EntityManager,
  deps: { mailer: Mailer; key: Buffer; clock: Clock },
  job: ChallengeJob,
): Promise<'mailed' | 'no_account'> {
  const account = await em.findOne(Account, { email: job.email }, { fields: ['id'] });
  const now = deps.clock.now();
  const code = account
    ? String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0')
    : randomBytes(16).toString('hex');
  await em.transactional(async (tem) => {
    await tem.nativeUpdate(EmailChallenge, { email: job.email, spentAt: null }, { spentAt: now });
    const id = randomUUID();
    tem.create(EmailChallenge, {
      id,
      email: job.email,
      codeHash: codeHash(deps.key, id, code),
      clientName: job.clientName.slice(0, 200),
      scopes: job.scopes,
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      createdAt: now,
    });
  });
  if (!account) return 'no_account';
  await deps.mailer.send(
    codeMail({ to: job.email, code, clientName: job.clientName, minutes: CODE_TTL_SECONDS / 60 }),
  );
  return 'mailed';
}

const invalidCode = () =>
  invalidRequest(
    'The code is wrong, expired or already used. Check it, or request a new challenge.',
    [{ path: 'code', message: 'invalid or expired code' }],
    'invalid_code',
  );

export type ClaimedToken = BearerToken;

/**
 * POST /agent-auth/verified-email/claim: the newest live challenge of the address, its code compared
 * by keyed hash in constant time. A right code is spent at once and becomes a verified_email token named
 * after the client; the fifth wrong one spends the challenge (too_many_attempts).
 */
export async function claimCode(
  em: EntityManager,
  limits: RateLimits,
  deps: { key: Buffer; clock: Clock },
  input: { email: string; code: string; ip: string },
): Promise<ClaimedToken> {
  const email = normaliseEmail(input.email);
  await limits.consume(CLAIMS_PER_IP, input.ip, 'Too many code claims from this address.');
  await limits.consume(CLAIMS_PER_EMAIL, email, 'Too many code claims for this email address.');
  if (!/^\d{8}$/.test(input.code)) {
    throw invalidRequest(
      'code must be the 8 digits from the mail.',
      [{ path: 'code', message: '8 digits' }],
      'invalid_code',
    );
  }
  const now = deps.clock.now();
  // Failures are written and committed before the error is thrown (a throw inside would roll them back).
  const outcome = await em.transactional(async (tem) => {
    const challenge = await tem.findOne(
      EmailChallenge,
      { email, spentAt: null, expiresAt: { $gt: now } },
      { orderBy: { createdAt: 'desc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!challenge) return 'invalid' as const;
    if (!constantTimeEqual(challenge.codeHash, codeHash(deps.key, challenge.id, input.code))) {
      challenge.attempts += 1;
      if (challenge.attempts >= MAX_ATTEMPTS) challenge.spentAt = now;
      return challenge.spentAt ? ('locked' as const) : ('invalid' as const);
    }
    challenge.spentAt = now;
    // Only an account's challenge has a code that can match; this guards an account gone since.
    const account = await tem.findOne(Account, { email }, { fields: ['id'] });
    if (!account) return 'invalid' as const;
    return issueBearerToken(tem, {
      accountId: account.id,
      name: challenge.clientName,
      scopes: challenge.scopes.filter(isScope) as Scope[],
      kind: 'verified_email',
      now,
      lifetimeMs: VERIFIED_TOKEN_TTL_DAYS * 86_400_000,
    });
  });
  if (outcome === 'invalid') throw invalidCode();
  if (outcome === 'locked') {
    throw invalidRequest(
      `${MAX_ATTEMPTS} wrong codes: this challenge is closed. Request a new one.`,
      [{ path: 'code', message: 'too many attempts' }],
      'too_many_attempts',
    );
  }
  return outcome;
}

/**
 * Deletes challenges past their 15 minutes (a claim answers invalid_code for them either way). Every
 * requested address gets a row, known or not, so without this the table would grow with each request.
 */
export async function sweepEmailChallenges(em: EntityManager, now: Date): Promise<number> {
  return em.nativeDelete(EmailChallenge, { expiresAt: { $lte: now } });
}
