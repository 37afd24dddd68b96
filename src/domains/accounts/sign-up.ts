import type { EntityManager } from '@mikro-orm/postgresql';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import type { Account } from './account.entity.ts';
import { type CreateAccountInput, createAccount } from './create-account.ts';

/**
 * Sign-up attempts from one IP address, whatever their outcome. A sign-up says email_taken for an
 * address that has an account and hashes a password each time, so without a bound it would be a free
 * account-existence oracle and a way to spend the server's CPU.
 */
export const SIGN_UPS_PER_IP: LimitRule = { name: 'sign-up-ip', points: 20, windowSeconds: 3600 };

/** The sign-up page's account creation: counted per IP first (429 with Retry-After), then created. */
export async function signUp(
  em: EntityManager,
  limits: RateLimits,
  input: CreateAccountInput & { password: string; ip: string },
): Promise<Account> {
  await limits.consume(SIGN_UPS_PER_IP, input.ip, 'Too many sign-ups from this address.');
  const { ip: _ip, ...account } = input;
  return createAccount(em, account);
}
