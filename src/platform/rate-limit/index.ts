import { Redis } from 'ioredis';
import pg from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { type ConnectionState, reconnectDelay } from '../connection-state.ts';
import { rateLimited } from '../errors.ts';
import { noteRateLimit } from '../request-scope.ts';
import type { RateLimitReading } from './reading.ts';

export type { RateLimitReading } from './reading.ts';

export interface LimitRule {
  /** Distinguishes counters of different limits in the shared store. */
  name: string;
  /** The name clients see (RateLimit headers, the rate-limits listing); `name` when left out. */
  policy?: string;
  points: number;
  windowSeconds: number;
  /**
   * `utc-midnight`: the caller keys its subjects by UTC day, so the points come back at midnight UTC,
   * whatever is left of the window.
   */
  resets?: 'utc-midnight';
}

export interface RateLimits {
  /**
   * Takes one point for `subject` and says how many are left in the window; over the limit, throws 429
   * rate_limit_error with retryAfterSeconds and the budget's figures. Either way the budget is noted in
   * the request scope (the answer's RateLimit headers).
   */
  consume(rule: LimitRule, subject: string, message: string): Promise<{ remaining: number }>;
  /**
   * The budget when `subject` has spent its points under `rule` (noted in the request scope, as a
   * refusal), else null. Takes none.
   */
  blockedFor(rule: LimitRule, subject: string): Promise<RateLimitReading | null>;
  /** The budget of `subject` under `rule` as it stands: takes none, notes nothing. */
  peek(rule: LimitRule, subject: string): Promise<RateLimitReading>;
  /** Forgets what `subject` spent under `rule` (a success ends a run of failures). */
  reset(rule: LimitRule, subject: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Fixed-window counters shared by every instance: in PostgreSQL by default, in Redis when REDIS_URL is
 * set (rate-limiter-flexible does the atomic counting in either store).
 *
 * While the shared store is away, each limit counts in this process's memory instead (the library's
 * insurance limiter, with the same points and window): a deployment of N processes then lets through
 * at most N times a limit, and no request fails because the store did. With Redis, a request does not
 * wait for it: a client that is not connected is passed over at once. The shared counters are used
 * again as soon as the store answers.
 */
export function createRateLimits(options: {
  databaseUrl: string;
  /** Redis, and the deployment's namespace put before every key (src/platform/redis-namespace.ts). */
  redis?: { url: string; namespace: string } | undefined;
  /** Told when Redis is lost and back (one log line per outage). */
  connection?: ConnectionState | undefined;
  /** Connection-level failures of the PostgreSQL store (a lost idle connection). */
  onConnectionError?: (err: Error) => void;
}): RateLimits {
  const redis = options.redis
    ? new Redis(options.redis.url, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        retryStrategy: reconnectDelay,
      })
    : null;
  const keyPrefix = (rule: LimitRule) =>
    options.redis ? `${options.redis.namespace}:rl:${rule.name}` : `rl:${rule.name}`;
  redis?.on('error', (err) => options.connection?.down(err));
  redis?.on('ready', () => options.connection?.up());
  const pool = redis ? null : new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  pool?.on('error', options.onConnectionError ?? (() => {}));
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (rule: LimitRule) => {
    const id = `${rule.name}:${rule.points}:${rule.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const common = { keyPrefix: keyPrefix(rule), points: rule.points, duration: rule.windowSeconds };
      const insuranceLimiter = new RateLimiterMemory(common);
      limiter = redis
        ? new RateLimiterRedis({
            ...common,
            storeClient: redis,
            useRedisPackage: false,
            rejectIfRedisNotReady: true,
            insuranceLimiter,
          })
        : new RateLimiterPostgres({
            ...common,
            storeClient: pool,
            storeType: 'pool',
            tableName: 'rate_limits',
            tableCreated: true,
            clearExpiredByTimeout: false,
            insuranceLimiter,
          });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  return {
    consume: async (rule, subject, message) => {
      let result: RateLimiterRes;
      try {
        result = await limiterFor(rule).consume(subject, 1);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        const reading = readingOf(rule, refusal);
        noteRateLimit(reading);
        throw rateLimited(message, reading.resetSeconds ?? 1, reading);
      }
      const reading = readingOf(rule, result);
      noteRateLimit(reading);
      return { remaining: reading.remaining };
    },
    blockedFor: async (rule, subject) => {
      const result = await limiterFor(rule).get(subject);
      if (!result || result.consumedPoints < rule.points) return null;
      const reading = readingOf(rule, result);
      noteRateLimit(reading);
      return reading;
    },
    peek: async (rule, subject) => readingOf(rule, await limiterFor(rule).get(subject)),
    reset: async (rule, subject) => {
      await limiterFor(rule).delete(subject);
    },
    close: async () => {
      await pool?.end();
      redis?.disconnect();
    },
  };
}

const secondsToUtcMidnight = (now: number) => {
  const date = new Date(now);
  return Math.ceil((Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) - now) / 1000);
};

/** The limiter's answer for one subject (null: nothing spent in a running window) as a reading. */
function readingOf(rule: LimitRule, result: RateLimiterRes | null): RateLimitReading {
  const running = result !== null && result.consumedPoints > 0;
  let resetSeconds: number | null = running ? Math.max(1, Math.ceil(result.msBeforeNext / 1000)) : null;
  if (rule.resets === 'utc-midnight') resetSeconds = Math.max(1, secondsToUtcMidnight(Date.now()));
  return {
    policy: rule.policy ?? rule.name,
    quota: rule.points,
    windowSeconds: rule.windowSeconds,
    remaining: running ? Math.max(0, rule.points - result.consumedPoints) : rule.points,
    resetSeconds,
  };
}
