import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { entities } from '../../entities.ts';
import { migrationsList } from '../../migrations/index.ts';
import { migrateToLatest } from './migrate.ts';

export type Orm = MikroORM;

export function ormConfig(clientUrl: string, poolMax = 10) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    migrations: {
      path: 'src/migrations',
      pathTs: 'src/migrations',
      migrationsList,
      snapshot: true,
      snapshotName: '.snapshot',
      silent: true,
    },
    debug: false,
    allowGlobalContext: false,
  });
}

/** Connects and brings the schema up to date. */
export async function openDatabase(clientUrl: string, poolMax?: number): Promise<Orm> {
  const orm = await MikroORM.init(ormConfig(clientUrl, poolMax));
  await migrateToLatest(orm, clientUrl);
  return orm;
}
