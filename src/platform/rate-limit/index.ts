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

export interface LimitRule {
  /** Distinguishes counters of different limits in the shared store. */
  name: string;
  points: number;
  windowSeconds: number;
}

export interface RateLimits {
  /**
   * Takes one point for `subject` and says how many are left in the window; over the limit, throws 429
   * rate_limit_error with retryAfterSeconds.
   */
  consume(rule: LimitRule, subject: string, message: string): Promise<{ remaining: number }>;
  /** Seconds until `subject` may go on when its points are spent under `rule`, else 0 (takes none). */
  blockedFor(rule: LimitRule, subject: string): Promise<number>;
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
      try {
        const result = await limiterFor(rule).consume(subject, 1);
        return { remaining: Math.max(0, result.remainingPoints) };
      } catch (result) {
        if (result instanceof RateLimiterRes) {
          throw rateLimited(message, Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
        }
        throw result;
      }
    },
    blockedFor: async (rule, subject) => {
      const result = await limiterFor(rule).get(subject);
      if (!result || result.consumedPoints < rule.points) return 0;
      return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    },
    reset: async (rule, subject) => {
      await limiterFor(rule).delete(subject);
    },
    close: async () => {
      await pool?.end();
      redis?.disconnect();
    },
  };
}
