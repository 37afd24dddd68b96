import type { ConnectionState } from './connection-state.ts';

/** How often the database is pinged for the service status, and how long a ping may take. */
export const HEALTH_INTERVAL_MS = 2_000;
const PING_TIMEOUT_MS = 2_000;

export type DatabaseHealth = 'ok' | 'unreachable';
export type RedisHealth = 'ok' | 'unreachable' | 'not_configured';

/**
 * The service status answers from here: the database is pinged in the background every couple of
 * seconds instead of once per status request (a load balancer polling /v1/status costs no query). Each
 * ping also tells the process's view of the database (`ConnectionState`), so an outage and its end are
 * logged once, whoever met it first.
 */
export class HealthMonitor {
  private state: { database: DatabaseHealth; checkedAt: Date } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | null = null;
  private readonly ping: () => Promise<unknown>;
  private readonly connections: {
    database?: ConnectionState | undefined;
    redis?: ConnectionState | undefined;
  };

  constructor(
    ping: () => Promise<unknown>,
    connections: { database?: ConnectionState; redis?: ConnectionState } = {},
  ) {
    this.ping = ping;
    this.connections = connections;
  }

  /** The last known database health; the first call waits for the first ping. */
  async database(): Promise<DatabaseHealth> {
    if (!this.state) await this.check();
    this.start();
    return this.state?.database ?? 'unreachable';
  }

  /** Redis as its clients last saw it (`not_configured` without REDIS_URL). */
  redis(): RedisHealth {
    const redis = this.connections.redis;
    if (!redis) return 'not_configured';
    return redis.isUp ? 'ok' : 'unreachable';
  }

  /** Pings now (concurrent callers share one ping). */
  check(): Promise<void> {
    this.pending ??= this.pingOnce().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Pings every HEALTH_INTERVAL_MS from now on (idempotent). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async pingOnce(): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS);
    });
    const database: DatabaseHealth = await Promise.race([this.ping(), timedOut])
      .then(() => {
        this.connections.database?.up();
        return 'ok' as const;
      })
      .catch((err: unknown) => {
        this.connections.database?.down(err);
        return 'unreachable' as const;
      })
      .finally(() => clearTimeout(timeout));
    this.state = { database, checkedAt: new Date() };
  }
}
