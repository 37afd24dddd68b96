import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { installJobs, type QueueDefinition } from '../jobs/index.ts';

const MIGRATION_LOCK_KEY = 7_353_100_117;

/**
 * Applies pending migrations, then installs pg-boss's schema and the app's queues. Several processes
 * may start at once against one database: a session-level advisory lock lets exactly one of them
 * migrate while the others wait.
 */
export async function migrateToLatest(
  orm: MikroORM,
  clientUrl: string,
  queues: readonly QueueDefinition[],
): Promise<void> {
  const client = new pg.Client({ connectionString: clientUrl });
  // A query's failure rejects that query; this only keeps a dropped idle connection from crashing start-up.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.migrator.up();
    await installJobs(clientUrl, queues);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
