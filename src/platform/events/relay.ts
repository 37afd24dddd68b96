import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { ConnectionState } from '../connection-state.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Logger } from '../logger.ts';
import { OUTBOX_CHANNEL } from './append-event.ts';
import { type OutboxRow, type PublishedEvent, type PubSub, toPublishedEvent } from './pubsub.ts';

const RELAY_LOCK_KEY = 7_353_100_118;
const BATCH = 500;
const POLL_MS = 1000;
/** Waits between attempts to connect again after the connection was lost: quick, then every second. */
const RECONNECT_DELAYS_MS = [100, 250, 500, 1000];

/** Events were committed with their cursors, but announcing them to the pub/sub failed. */
class AnnounceError extends Error {
  constructor(cause: unknown) {
    super('publishing committed events failed', { cause });
  }
}

/**
 * Publishes outbox rows. One relay at a time across all instances (a session advisory lock held over
 * "assign cursors, commit, publish"), so publication order is cursor order everywhere. Rows are claimed
 * by `cursor is null`, never by id ranges, so a transaction that commits late is still published.
 * Within a batch, cursors follow the ids (the order the events were written, which is commit order for
 * changes that wait on each other's locks): numbered in a sorted select, since an UPDATE joined to the
 * claimed rows assigns `nextval` in whatever order its plan reads the table (a hash join scanning the
 * heap, say, which is not id order once rows have moved).
 *
 * The relay keeps one connection of its own (LISTEN, and the session lock). When it is lost (the
 * database restarted, a network cut), the relay connects again with backoff, listens again and
 * publishes whatever was committed meanwhile, in cursor order. Rows whose cursors a lost connection
 * may have committed without publishing them are handed on by the pub/sub's catch-up, read from the
 * outbox.
 *
 * A publish that fails after the commit (Redis away, or not answering in time) leaves events every
 * listener may never hear of: a listener only reads a hole from the outbox when a later event shows
 * it (or when its own connection comes back, which need not happen). So the relay announces the newest
 * of them again on each run (at least once a second) until it goes through, or until a later batch
 * is published, which shows the same hole.
 */
export class OutboxRelay {
  readonly #pubsub: PubSub;
  readonly #log: Logger;
  readonly #url: string;
  readonly #database: ConnectionState | undefined;
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #attempts = 0;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #lastWarnedAt = 0;
  /** The newest event whose announcement failed, until an announcement after it goes through. */
  #unannounced: PublishedEvent | null = null;
  readonly #observeLag: (seconds: number) => void;

  /**
   * `observeLag` hears, for each event published, the seconds since it was written (metrics);
   * `database` is told when the relay loses or regains its connection (one log line per outage).
   */
  constructor(
    orm: MikroORM,
    pubsub: PubSub,
    log: Logger,
    observeLag: (seconds: number) => void = () => {},
    database?: ConnectionState,
  ) {
    this.#pubsub = pubsub;
    this.#log = log;
    this.#observeLag = observeLag;
    this.#database = database;
    this.#url = String(orm.config.get('clientUrl'));
  }

  /** Connects and publishes what is waiting; the first connection must succeed (start-up). */
  async start(): Promise<void> {
    await this.#connect();
    this.#timer = setInterval(() => this.kick(), POLL_MS);
    this.#timer.unref();
    this.kick();
  }

  /** Whether the relay holds a live connection (false while it reconnects). */
  get connected(): boolean {
    return this.#client !== null;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, new Error('Connection terminated')));
    client.on('notification', () => this.kick());
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
  }

  /** The connection is gone: forget it and connect again (a no-op for a connection already replaced). */
  #lost(client: pg.Client, err: Error): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.#stopped) return;
    this.#database?.down(err);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#reconnectTimer || this.#connecting) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.#attempts, RECONNECT_DELAYS_MS.length - 1)];
    this.#attempts++;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      this.#connecting = this.#connect()
        .then(() => {
          this.#connecting = null;
          if (this.#stopped) return;
          this.#attempts = 0;
          this.#database?.up();
          // Cursors a lost commit may have assigned were never announced: the pub/sub reads them.
          void this.#pubsub.catchUp();
          this.kick();
        })
        .catch((err: unknown) => {
          this.#connecting = null;
          this.#database?.down(err);
          this.#scheduleReconnect();
        });
    }, delay);
    this.#reconnectTimer.unref();
  }

  /** Publishes whatever is unpublished; calls during a run make it run once more. */
  kick(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        while ((await this.#publishBatch()) === BATCH) {}
      } while (this.#again && !this.#stopped);
    })()
      .catch((err: unknown) => this.#failed(err))
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  #failed(err: unknown): void {
    const client = this.#client;
    if (isDatabaseUnavailable(err)) {
      // A query on a connection the database dropped: the socket may not have said so yet.
      if (client) this.#lost(client, err as Error);
      else this.#database?.down(err);
      return;
    }
    if (!(err instanceof AnnounceError)) {
      this.#log.error({ err }, 'outbox relay');
      return;
    }
    // The commit happened and publishing failed (Redis away): the pub/sub reads these from the outbox
    // when its connection is back. Said once a minute at most, however many batches meet it.
    const now = Date.now();
    if (now - this.#lastWarnedAt < 60_000) return;
    this.#lastWarnedAt = now;
    this.#log.warn(
      { err: err.cause },
      'outbox relay: events committed but not announced; they are read from the outbox',
    );
  }

  async #publishBatch(): Promise<number> {
    const client = this.#client;
    if (!client) return 0;
    const { rows: locked } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [
      RELAY_LOCK_KEY,
    ]);
    if (!locked[0]?.ok) return 0; // another instance is publishing; its NOTIFY-driven run covers these rows
    let rows: OutboxRow[];
    try {
      await client.query('begin');
      ({ rows } = await client.query<OutboxRow>(
        `with next as (
           select id from outbox_events where cursor is null order by id limit ${BATCH} for update skip locked
         ), numbered as materialized (
           select id, nextval('outbox_events_cursor_seq') as cursor from next order by id
         )
         update outbox_events e set cursor = numbered.cursor, published_at = now()
           from numbered where e.id = numbered.id
         returning e.id, e.account_id, e.release_id, e.type, e.payload, e.created_at, e.cursor`,
      ));
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      await client.query('select pg_advisory_unlock($1)', [RELAY_LOCK_KEY]).catch(() => undefined);
      throw error;
    }
    try {
      const events: PublishedEvent[] = rows.map(toPublishedEvent).sort((a, b) => a.cursor - b.cursor);
      const now = Date.now();
      for (const row of rows) this.#observeLag((now - new Date(row.created_at).getTime()) / 1000);
      if (events.length > 0) await this.#announce(events);
      else if (this.#unannounced) await this.#announce([this.#unannounced]);
      return rows.length;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [RELAY_LOCK_KEY]).catch(() => undefined);
    }
  }

  /** Publishes events in cursor order; on failure keeps the newest to announce again (see above). */
  async #announce(events: PublishedEvent[]): Promise<void> {
    try {
      await this.#pubsub.publish(events);
    } catch (cause) {
      const newest = events.at(-1)!;
      if (!this.#unannounced || newest.cursor > this.#unannounced.cursor) this.#unannounced = newest;
      throw new AnnounceError(cause);
    }
    if (this.#unannounced && events.at(-1)!.cursor >= this.#unannounced.cursor) this.#unannounced = null;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    await this.#running;
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = null;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }
}
