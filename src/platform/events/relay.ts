import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { OUTBOX_CHANNEL } from './append-event.ts';
import { type OutboxRow, type PublishedEvent, type PubSub, toPublishedEvent } from './pubsub.ts';

const RELAY_LOCK_KEY = 7_353_100_118;
const BATCH = 500;
const POLL_MS = 1000;

/**
 * Publishes outbox rows. One relay at a time across all instances (a session advisory lock held over
 * "assign cursors, commit, publish"), so publication order is cursor order everywhere. Rows are claimed
 * by `cursor is null`, never by id ranges, so a transaction that commits late is still published.
 */
export class OutboxRelay {
  readonly #pubsub: PubSub;
  readonly #log: Logger;
  readonly #url: string;
  #client: pg.Client | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  readonly #observeLag: (seconds: number) => void;

  /** `observeLag` hears, for each event published, the seconds since it was written (metrics). */
  constructor(orm: MikroORM, pubsub: PubSub, log: Logger, observeLag: (seconds: number) => void = () => {}) {
    this.#pubsub = pubsub;
    this.#log = log;
    this.#observeLag = observeLag;
    this.#url = String(orm.config.get('clientUrl'));
  }

  async start(): Promise<void> {
    this.#client = new pg.Client({ connectionString: this.#url });
    this.#client.on('error', (err) => this.#log.error({ err }, 'outbox relay connection'));
    await this.#client.connect();
    this.#client.on('notification', () => this.kick());
    await this.#client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    this.#timer = setInterval(() => this.kick(), POLL_MS);
    this.#timer.unref();
    this.kick();
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
      .catch((err) => this.#log.error({ err }, 'outbox relay'))
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  async #publishBatch(): Promise<number> {
    const client = this.#client;
    if (!client) return 0;
    const { rows: locked } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [
      RELAY_LOCK_KEY,
    ]);
    if (!locked[0]?.ok) return 0; // another instance is publishing; its NOTIFY-driven run covers these rows
    try {
      await client.query('begin');
      const { rows } = await client.query<OutboxRow>(
        `with next as (
           select id from outbox_events where cursor is null order by id limit ${BATCH} for update skip locked
         )
         update outbox_events e set cursor = nextval('outbox_events_cursor_seq'), published_at = now()
           from next where e.id = next.id
         returning e.id, e.account_id, e.release_id, e.type, e.payload, e.created_at, e.cursor`,
      );
      await client.query('commit');
      const events: PublishedEvent[] = rows.map(toPublishedEvent).sort((a, b) => a.cursor - b.cursor);
      const now = Date.now();
      for (const row of rows) this.#observeLag((now - new Date(row.created_at).getTime()) / 1000);
      if (events.length > 0) await this.#pubsub.publish(events);
      return rows.length;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [RELAY_LOCK_KEY]).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
    await this.#client?.end().catch(() => undefined);
    this.#client = null;
  }
}
