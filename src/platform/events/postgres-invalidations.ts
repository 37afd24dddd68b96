import pg from 'pg';
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
 * one notification. Events stay in-process (`pubsub`); only invalidate/onInvalidation change.
 */
export function withPostgresInvalidations(
  pubsub: PubSub,
  databaseUrl: string,
  onConnectionError: (err: Error) => void = () => {},
): PubSub {
  let listener: pg.Client | null = null;
  let closed = false;
  // An error on a connection being closed (the database stopping behind a shutdown) is expected.
  const connectionError = (err: Error) => {
    if (!closed) onConnectionError(err);
  };
  const sender = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  sender.on('error', connectionError);
  let retry: NodeJS.Timeout | undefined;

  const listen = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', (err) => {
      connectionError(err);
      void client.end().catch(() => undefined);
      if (listener === client) listener = null;
      if (!closed) retry = setTimeout(() => void listen().catch(onConnectionError), RECONNECT_MS);
    });
    client.on('notification', (message) => {
      if (message.channel !== INVALIDATION_CHANNEL || !message.payload) return;
      void pubsub.invalidate(JSON.parse(message.payload) as Invalidation);
    });
    await client.connect();
    await client.query(`listen ${INVALIDATION_CHANNEL}`);
    if (closed) await client.end();
    else listener = client;
  };
  const ready = listen().catch((err: Error) => {
    onConnectionError(err);
    if (!closed) retry = setTimeout(() => void listen().catch(onConnectionError), RECONNECT_MS);
  });

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
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await ready;
      await listener?.end().catch(() => undefined);
      await sender.end();
      await pubsub.close();
    },
  };
}
