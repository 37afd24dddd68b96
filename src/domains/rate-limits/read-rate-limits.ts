import type { RateLimits } from '../../platform/rate-limit/index.ts';
import type { ApplicableLimit, RateLimitKey } from './applicable-limit.ts';

/** A limit as it stands for the caller. */
export interface RateLimitStatus<Action extends string = string> {
  /** The policy's name, as the RateLimit headers name it. */
  name: string;
  action: Action;
  keyedBy: RateLimitKey;
  appliesTo: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the points come back; null when nothing is spent (no window running). */
  resetSeconds: number | null;
  resetsAt: Date | null;
}

/** Reads each limit from the shared limiter without spending a point. */
export async function readRateLimits<Action extends string>(
  rateLimits: RateLimits,
  limits: readonly ApplicableLimit<Action>[],
  now: Date,
): Promise<RateLimitStatus<Action>[]> {
  return Promise.all(
    limits.map(async (limit) => {
      const reading = await rateLimits.peek(limit.rule, limit.subject);
      return {
        name: reading.policy,
        action: limit.action,
        keyedBy: limit.keyedBy,
        appliesTo: limit.appliesTo,
        quota: reading.quota,
        windowSeconds: reading.windowSeconds,
        remaining: reading.remaining,
        resetSeconds: reading.resetSeconds,
        resetsAt:
          reading.resetSeconds === null ? null : new Date(now.getTime() + reading.resetSeconds * 1000),
      };
    }),
  );
}
