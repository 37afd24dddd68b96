import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { type ConnectionState, reconnectDelay } from '../connection-state.ts';

/** An event as subscribers see it: published, with its cursor (the position to resume after). */
export interface PublishedEvent {
  cursor: number;
  id: number;
  accountId: string;
  releaseId: string | null;
  type: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

/** An `outbox_events` row as raw SQL returns it (bigints as text). */
export interface OutboxRow {
  id: string | number;
  account_id: string;
  release_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date | string;
  cursor: string | number;
}

export function toPublishedEvent(row: OutboxRow): PublishedEvent {
  return {
    cursor: Number(row.cursor),
    id: Number(row.id),
    accountId: row.account_id,
    releaseId: row.release_id,
    type: row.type,
    payload: row.payload,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A cache entry every instance must drop: `key` of the cache named `cache`. */
export interface Invalidation {
  cache: string;
  key: string;
}

export interface PubSub {
  publish(events: PublishedEvent[]): Promise<void>;
  /** Calls `listener` for every event published by any instance, in publication order. */
  subscribe(listener: (event: PublishedEvent) => void): () => void;
  /** Tells every instance (this one included) to drop a cache entry. */
  invalidate(invalidation: Invalidation): Promise<void>;
  onInvalidation(listener: (invalidation: Invalidation) => void): () => void;
  /**
   * Calls `listener` each time the connection messages travel on comes back after it was lost: what
   * was sent meanwhile (events, invalidations) may never arrive, so caches are dropped and events are
   * read again from the outbox.
   */
  onReconnect(listener: () => void): () => void;
  /** Hands this process's listeners every published event they have not been handed (gap fill). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

/** One process: an in-memory fan-out. */
export function createLocalPubSub(): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (events) => {
      for (const event of events) emitter.emit('event', event);
    },
    subscribe: (listener) => {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    invalidate: async (invalidation) => {
      emitter.emit('invalidation', invalidation);
    },
    onInvalidation: (listener) => {
      emitter.on('invalidation', listener);
      return () => emitter.off('invalidation', listener);
    },
    onReconnect: () => () => {},
    catchUp: async () => {},
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Several instances: Redis pub/sub, so a subscriber on one sees events published by another. Channels
 * live under the deployment's namespace (src/platform/redis-namespace.ts).
 */
export function createRedisPubSub(url: string, namespace: string, connection?: ConnectionState): PubSub {
  const CHANNEL = `${namespace}:events`;
  const INVALIDATIONS = `${namespace}:invalidations`;
  // While Redis is away a publish fails at once instead of waiting in ioredis's offline queue: events
  // stay in the outbox (every process reads what it missed when Redis is back), and an invalidation
  // reaches the other processes as a dropped cache when their connection comes back.
  const publisher = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: reconnectDelay,
  });
  // The subscription waits for Redis however long it is away; ioredis subscribes again on every
  // reconnection (autoResubscribe) before it says 'ready'.
  const subscriber = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: reconnectDelay });
  const reconnected = new EventEmitter();
  let subscribedOnce = false;
  publisher.on('error', (err) => connection?.down(err));
  publisher.on('ready', () => connection?.up());
  subscriber.on('error', (err) => connection?.down(err));
  subscriber.on('ready', () => {
    connection?.up();
    if (subscribedOnce) reconnected.emit('reconnect');
    subscribedOnce = true;
  });
  const local = createLocalPubSub();
  const subscribed = subscriber.subscribe(CHANNEL, INVALIDATIONS).then(() => undefined);
  subscribed.catch(() => undefined); // only rejects when the pub/sub is closed first
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === INVALIDATIONS) void local.invalidate(JSON.parse(message) as Invalidation);
    else void local.publish([JSON.parse(message) as PublishedEvent]);
  });
  // Sent only once this process hears the channels (it then sees its own events) and the publisher is
  // connected; a Redis that does not answer within the bound fails the publish (the caller keeps it).
  const sendable = async () => {
    if (connection && !connection.isUp) throw new Error('Redis is unreachable');
    await Promise.all([within(subscribed, READY_WAIT_MS), connected(publisher, READY_WAIT_MS)]);
  };
  return {
    publish: async (events) => {
      await sendable();
      for (const event of events) await publisher.publish(CHANNEL, JSON.stringify(event));
    },
    subscribe: (listener) => local.subscribe(listener),
    invalidate: async (invalidation) => {
      // This instance drops the entry at once; the others within one Redis hop.
      await local.invalidate(invalidation);
      try {
        await sendable();
        await publisher.publish(INVALIDATIONS, JSON.stringify(invalidation));
      } catch (err) {
        // A server process goes on (the others drop their caches when their connection is back); a
        // one-off caller without a connection state (the operator CLI) hears the failure.
        if (!connection) throw err;
        connection.down(err);
      }
    },
    onInvalidation: (listener) => local.onInvalidation(listener),
    onReconnect: (listener) => {
      reconnected.on('reconnect', listener);
      return () => reconnected.off('reconnect', listener);
    },
    catchUp: async () => {},
    close: async () => {
      await local.close();
      reconnected.removeAllListeners();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

/** How long a publish waits for a Redis connection being (re)established before it fails. */
const READY_WAIT_MS = 2_000;

function connected(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error(`Redis did not answer within ${ms} ms`));
    }, ms);
    client.once('ready', onReady);
  });
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
