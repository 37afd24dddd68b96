import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, rateLimited } from '../../platform/errors.ts';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import { Account } from './account.entity.ts';
import { verifyPassword } from './password.ts';
import { recordSignInEvent } from './sign-in-events.ts';

/** Failed sign-ins of one email address before it is locked, and for how long (docs/oauth.md). */
export const SIGN_IN_FAILURES_PER_ACCOUNT: LimitRule = {
  name: 'sign-in-account',
  points: 5,
  windowSeconds: 900,
};
/** Failed sign-ins from one IP address, whatever the account, before it must wait. */
export const SIGN_IN_FAILURES_PER_IP: LimitRule = { name: 'sign-in-ip', points: 30, windowSeconds: 900 };

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
}

const locked = (seconds: number) =>
  new AppError(
    'locked_error',
    'account_locked',
    `Too many failed sign-ins for this account: try again in ${Math.ceil(seconds / 60)} minutes.`,
    { retryAfterSeconds: seconds },
  );

/**
 * Checks an email and password. Failures count per email (an unknown address counts too, so a lock says
 * nothing about who has an account) and per IP; a success clears the email's count. Each counted failure
 * of an existing account is also recorded durably (`failed`, or `locked` for the one that locked it) for
 * the fraud score; an unknown address records nothing.
 */
export async function signIn(em: EntityManager, limits: RateLimits, input: SignInInput): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  const accountLock = await limits.blockedFor(SIGN_IN_FAILURES_PER_ACCOUNT, email);
  if (accountLock) throw locked(accountLock.resetSeconds ?? SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds);
  const ipLock = await limits.blockedFor(SIGN_IN_FAILURES_PER_IP, input.ip);
  if (ipLock) {
    const seconds = ipLock.resetSeconds ?? SIGN_IN_FAILURES_PER_IP.windowSeconds;
    throw rateLimited('Too many failed sign-ins from this address.', seconds, ipLock);
  }

  const account = await em.findOne(Account, { email }, { populate: ['passwordHash'] });
  if (account && (await verifyPassword(account.passwordHash ?? null, input.password))) {
    await limits.reset(SIGN_IN_FAILURES_PER_ACCOUNT, email);
    return account;
  }
  if (!account) await verifyPassword(null, input.password);
  // The over-limit failure is itself the lock: consume throws 429 when the last point goes.
  await limits.consume(SIGN_IN_FAILURES_PER_IP, input.ip, 'sign-in').catch(() => {});
  const spent = await limits
    .consume(SIGN_IN_FAILURES_PER_ACCOUNT, email, 'sign-in')
    .then(() => false)
    .catch(() => true);
  const lock = spent
    ? SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds
    : ((await limits.blockedFor(SIGN_IN_FAILURES_PER_ACCOUNT, email))?.resetSeconds ?? 0);
  await recordSignInEvent(em, email, lock > 0 ? 'locked' : 'failed');
  if (lock > 0) throw locked(lock);
  throw new AppError('authentication_error', 'invalid_credentials', 'The email or password is not right.');
}
