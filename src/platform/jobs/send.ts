import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Db, fromKysely, type JobInsert, PgBoss, type SendOptions } from 'pg-boss';
import { JOBS_SCHEMA } from './queue.ts';

const current = new AsyncLocalStorage<Db>();
let sender: PgBoss | undefined;

/**
 * A pg-boss instance that is never started: it only sends. Every statement it runs, the queue lookup
 * (once per queue) as well as the insert, goes to the transaction of the call in progress, so a send
 * never takes a second connection while the caller holds one.
 */
function theSender(): PgBoss {
  sender ??= new PgBoss({
    schema: JOBS_SCHEMA,
    db: {
      executeSql: (text, values) => {
        const db = current.getStore();
        if (!db) throw new Error('a job is sent only inside sendInTransaction');
        return db.executeSql(text, values);
      },
    },
    supervise: false,
    schedule: false,
    migrate: false,
    registerInstance: false,
  });
  return sender;
}

/** pg-boss's `db` option over the caller's MikroORM transaction: `$1` parameters, the same connection. */
function transactionDb(em: EntityManager, queue: string): Db {
  const trx = em.getTransactionContext();
  if (!trx) throw new Error(`a job for ${queue} must be sent inside the transaction that decides it`);
  return fromKysely(trx);
}

/**
 * Enqueues a job in the caller's transaction: it exists if and only if the transaction commits, so a
 * state change and the job that follows it up cannot part. Returns the job id, or null when the queue's
 * policy deduplicated it (an identical job is already queued).
 */
export async function sendInTransaction(
  em: EntityManager,
  queue: string,
  data: object,
  options: Omit<SendOptions, 'db'> = {},
): Promise<string | null> {
  const db = transactionDb(em, queue);
  return current.run(db, () => theSender().send(queue, data, { ...options, db }));
}

/** Many jobs in one statement, in the caller's transaction (duplicates skipped as by send). */
export async function insertInTransaction(
  em: EntityManager,
  queue: string,
  jobs: readonly JobInsert[],
): Promise<void> {
  if (jobs.length === 0) return;
  const db = transactionDb(em, queue);
  await current.run(db, () => theSender().insert(queue, [...jobs], { db }));
}
