import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

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
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Several instances: Redis pub/sub, so a subscriber on one sees events published by another. Channels
 * live under the deployment's namespace (src/platform/redis-namespace.ts).
 */
export function createRedisPubSub(
  url: string,
  namespace: string,
  onConnectionError: (err: Error) => void = () => {},
): PubSub {
  const CHANNEL = `${namespace}:events`;
  const INVALIDATIONS = `${namespace}:invalidations`;
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url);
  publisher.on('error', onConnectionError);
  subscriber.on('error', onConnectionError);
  const local = createLocalPubSub();
  const ready = subscriber.subscribe(CHANNEL, INVALIDATIONS);
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === INVALIDATIONS) void local.invalidate(JSON.parse(message) as Invalidation);
    else void local.publish([JSON.parse(message) as PublishedEvent]);
  });
  return {
    publish: async (events) => {
      await ready;
      for (const event of events) await publisher.publish(CHANNEL, JSON.stringify(event));
    },
    subscribe: (listener) => local.subscribe(listener),
    invalidate: async (invalidation) => {
      // This instance drops the entry at once; the others within one Redis hop.
      await local.invalidate(invalidation);
      await ready;
      await publisher.publish(INVALIDATIONS, JSON.stringify(invalidation));
    },
    onInvalidation: (listener) => local.onInvalidation(listener),
    close: async () => {
      await local.close();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
