import { MikroORM } from '@mikro-orm/postgresql';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { ormConfig } from '../../src/platform/db/orm.ts';
import { databaseUrl, dropDatabase, RUN_KEY, TEMPLATE_DATABASE, withAdmin } from './database.ts';

/** Builds the migrated template database every test file copies, and sweeps databases of earlier runs. */
export default async function setup(): Promise<() => Promise<void>> {
  await withAdmin(async (client) => {
    const stale = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`tributary_t_${RUN_KEY}_%`],
    );
    for (const row of stale.rows) await dropDatabase(client, row.datname);
    await dropDatabase(client, TEMPLATE_DATABASE);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  const url = databaseUrl(TEMPLATE_DATABASE);
  const orm = await MikroORM.init(ormConfig(url, 2));
  await migrateToLatest(orm, url);
  await orm.close();
  return async () => {
    await withAdmin((client) => dropDatabase(client, TEMPLATE_DATABASE));
  };
}
