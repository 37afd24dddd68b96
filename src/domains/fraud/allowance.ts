import { AppError, isAppError } from '../../platform/errors.ts';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';

export interface FraudLimits {
  /** Scores per minute per account (FRAUD_RATE_LIMIT_PER_MINUTE). */
  perMinute: number;
  /** Scores per UTC day per account: the free tier (FRAUD_DAILY_QUOTA). */
  perDay: number;
}

/** The two budgets of an account's scores, and whose counter each is (the daily one is per UTC day). */
export function fraudRules(limits: FraudLimits, accountId: string, now: Date) {
  return {
    perMinute: {
      rule: { name: 'fraud-score-minute', points: limits.perMinute, windowSeconds: 60 } satisfies LimitRule,
      subject: accountId,
    },
    perDay: {
      rule: {
        name: 'fraud-score-day',
        points: limits.perDay,
        windowSeconds: 86_400,
        resets: 'utc-midnight',
      } satisfies LimitRule,
      subject: `${accountId}:${now.toISOString().slice(0, 10)}`,
    },
  };
}

/**
 * Takes one score from the caller's allowance: the per-minute rate first, then the daily free-tier
 * quota, which resets at midnight UTC. Every request counts, found or not (a 404 is an answer too).
 * Over either: 429 rate_limit_error with retryAfterSeconds (`rate_limited`, `daily_quota_exceeded`).
 */
export async function consumeFraudAllowance(
  rateLimits: RateLimits,
  accountId: string,
  limits: FraudLimits,
  now: Date,
): Promise<void> {
  const { perMinute, perDay } = fraudRules(limits, accountId, now);
  await rateLimits.consume(
    perMinute.rule,
    perMinute.subject,
    `At most ${limits.perMinute} fraud scores per minute.`,
  );
  try {
    await rateLimits.consume(perDay.rule, perDay.subject, 'quota');
  } catch (error) {
    if (!isAppError(error) || error.type !== 'rate_limit_error') throw error;
    throw new AppError(
      'rate_limit_error',
      'daily_quota_exceeded',
      `The daily free-tier quota of ${limits.perDay} fraud scores is used up; it resets at midnight UTC.`,
      {
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
        ...(error.rateLimit ? { rateLimit: error.rateLimit } : {}),
      },
    );
  }
}
