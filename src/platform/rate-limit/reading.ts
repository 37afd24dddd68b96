/**
 * One budget of the shared limiter as it stands for one subject: what an answer that spent from it (or
 * was refused by it) reports, and what the rate-limits listing reads without spending.
 */
export interface RateLimitReading {
  /** The policy's name as clients see it (RateLimit headers, the rate-limits listing). */
  policy: string;
  /** Points per window. */
  quota: number;
  windowSeconds: number;
  /** Points left in the current window (0 once spent, or refused). */
  remaining: number;
  /** Seconds until the points come back; null when no window is running (nothing spent yet). */
  resetSeconds: number | null;
}
