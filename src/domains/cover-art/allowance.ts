import type { EntityManager } from '@mikro-orm/postgresql';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import { getAccount } from '../accounts/index.ts';
import { COVER_ART_RATE } from './limits.ts';

/** The account's cover-art budget: one counter per account, whatever its points. */
export const coverArtRule = (isInsider: boolean): LimitRule => ({
  name: 'cover-art',
  points: isInsider ? COVER_ART_RATE.insider : COVER_ART_RATE.standard,
  windowSeconds: COVER_ART_RATE.windowSeconds,
});

/**
 * Takes one generation from the account's allowance (5 per 2 minutes, 15 for insiders) and says how many
 * are left; over it, 429 rate_limit_error with retryAfterSeconds. One counter per account whatever the
 * surface, and whatever the limit: an account that becomes an insider keeps its count.
 */
export async function consumeCoverArtAllowance(
  em: EntityManager,
  rateLimits: RateLimits,
  accountId: string,
): Promise<{ remaining: number }> {
  const account = await getAccount(em, accountId);
  const rule = coverArtRule(account.isInsider);
  return rateLimits.consume(
    rule,
    accountId,
    `At most ${rule.points} cover art generations per ${COVER_ART_RATE.windowSeconds / 60} minutes.`,
  );
}
