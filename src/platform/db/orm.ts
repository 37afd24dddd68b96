import type { AnyEntity, EntityClass, EntitySchema, MigrationObject } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { QueueDefinition } from '../jobs/index.ts';
import { routeConnectionQueries } from './connection-query.ts';
import { migrateToLatest } from './migrate.ts';
import { PreparedStatementNames } from './prepared-statements.ts';

export type Orm = MikroORM;

/**
 * What an app brings to its database. The platform imports no app code: the app's composition hands it
 * the entities the ORM maps, the committed migrations (and the folder `db:migration:create` writes new
 * ones to), and the job queues created with the schema.
 */
export interface DatabaseModel {
  entities: readonly (EntityClass<AnyEntity> | EntitySchema)[];
  migrations: { list: MigrationObject[]; path: string };
  queues: readonly QueueDefinition[];
}

/** How the ORM's connections run statements. */
export interface ConnectionOptions {
  /** Connections in the pool (DATABASE_POOL_MAX). */
  poolMax?: number;
  /**
   * Repeated statements run prepared, once per connection (DATABASE_PREPARED_STATEMENTS; default
   * on). Off for a connection pooler in transaction mode that does not carry prepared statements.
   */
  preparedStatements?: boolean;
}

export function ormConfig(
  clientUrl: string,
  model: DatabaseModel,
  { poolMax = 10, preparedStatements = true }: ConnectionOptions = {},
) {
  const names = preparedStatements ? new PreparedStatementNames() : null;
  return defineConfig({
    clientUrl,
    driverOptions: { onPoolCreated: (pool: pg.Pool) => routeConnectionQueries(pool, names) },
    entities: [...model.entities],
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    migrations: {
      path: model.migrations.path,
      pathTs: model.migrations.path,
      migrationsList: model.migrations.list,
      snapshot: true,
      snapshotName: '.snapshot',
      silent: true,
    },
    debug: false,
    allowGlobalContext: false,
  });
}

/** Connects and brings the schema up to date. */
export async function openDatabase(
  clientUrl: string,
  model: DatabaseModel,
  options?: ConnectionOptions,
): Promise<Orm> {
  const orm = await MikroORM.init(ormConfig(clientUrl, model, options));
  await migrateToLatest(orm, clientUrl, model.queues);
  return orm;
}
