import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { ConnectionState } from '../connection-state.ts';
import type { Invalidation, PubSub } from './pubsub.ts';

/** The NOTIFY channel cache invalidations travel on when there is no Redis. */
export const INVALIDATION_CHANNEL = 'tributary_invalidations';
const RECONNECT_MS = 1_000;

/**
 * Tells every process on the database to drop a cache entry; `notify` runs `pg_notify(channel, payload)`
 * on whatever connection the caller has (the CLI uses its ORM's).
 */
export async function notifyInvalidation(
  notify: (channel: string, payload: string) => Promise<unknown>,
  invalidation: Invalidation,
): Promise<void> {
  await notify(INVALIDATION_CHANNEL, JSON.stringify(invalidation));
}

/**
 * Without Redis the processes of one deployment still share PostgreSQL: cache invalidations travel
 * over LISTEN/NOTIFY, so a revocation in one process (or the operator CLI) reaches the others within
 * one notification. Events stay in-process (`pubsub`); only the invalidations and the reconnections
 * change. The listening connection comes back on its own after the database does (retried every
 * second); notifications sent meanwhile are lost, so a reconnection is announced (`onReconnect`) and
 * the caches are dropped.
 */
export function withPostgresInvalidations(
  pubsub: PubSub,
  databaseUrl: string,
  connection?: ConnectionState,
): PubSub {
  let listener: pg.Client | null = null;
  let closed = false;
  let listenedOnce = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnected = new EventEmitter();
  // An error on a connection being closed (the database stopping behind a shutdown) is expected.
  const connectionError = (err: Error) => {
    if (!closed) connection?.down(err);
  };
  const sender = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  sender.on('error', connectionError);

  const listenAgainLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, RECONNECT_MS);
  };
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    const lost = (err: Error) => {
      connectionError(err);
      void client.end().catch(() => undefined);
      if (listener === client) listener = null;
      listenAgainLater();
    };
    client.on('error', lost);
    client.on('end', () => {
      if (listener === client) lost(new Error('Connection terminated'));
    });
    client.on('notification', (message) => {
      if (message.channel !== INVALIDATION_CHANNEL || !message.payload) return;
      void pubsub.invalidate(JSON.parse(message.payload) as Invalidation);
    });
    try {
      await client.connect();
      await client.query(`listen ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    connection?.up();
    if (listenedOnce) reconnected.emit('reconnect');
    listenedOnce = true;
  };
  const ready = listen();

  return {
    ...pubsub,
    invalidate: async (invalidation) => {
      // This process drops the entry at once; the others (and this one again) on the notification.
      await pubsub.invalidate(invalidation);
      await ready;
      await notifyInvalidation(
        (channel, payload) => sender.query('select pg_notify($1, $2)', [channel, payload]),
        invalidation,
      );
    },
    onReconnect: (listener) => {
      reconnected.on('reconnect', listener);
      return () => reconnected.off('reconnect', listener);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      reconnected.removeAllListeners();
      await ready;
      await listener?.end().catch(() => undefined);
      await sender.end();
      await pubsub.close();
    },
  };
}
