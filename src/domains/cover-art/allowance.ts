import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimits } from '../../platform/rate-limit/index.ts';
import { getAccount } from '../accounts/index.ts';
import { COVER_ART_RATE } from './limits.ts';

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
  const points = account.isInsider ? COVER_ART_RATE.insider : COVER_ART_RATE.standard;
  return rateLimits.consume(
    { name: 'cover-art', points, windowSeconds: COVER_ART_RATE.windowSeconds },
    accountId,
    `At most ${points} cover art generations per ${COVER_ART_RATE.windowSeconds / 60} minutes.`,
  );
}
