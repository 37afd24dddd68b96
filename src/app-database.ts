import { entities } from './entities.ts';
import { migrationsList } from './migrations/index.ts';
import type { AppConfig } from './platform/config.ts';
import { connectDatabase as connectPlatformDatabase, type Database } from './platform/db/connect.ts';
import { migrateToLatest as migratePlatformDatabase } from './platform/db/migrate.ts';
import {
  type DatabaseModel,
  type Orm,
  openDatabase as openPlatformDatabase,
  ormConfig as platformOrmConfig,
} from './platform/db/orm.ts';
import type { Logger } from './platform/logger.ts';
import { queues } from './queues.ts';

/**
 * Tributary's database, as the platform's database code takes it: every domain's entities, the
 * committed migrations, the job queues. The platform imports none of them; this binds them once, so
 * entry points and tests call the functions below as they would the platform's.
 */
export const appDatabase: DatabaseModel = {
  entities,
  migrations: { list: migrationsList, path: 'src/migrations' },
  queues,
};

/** The ORM's configuration for this app's database at `clientUrl`. */
export const ormConfig = (clientUrl: string, poolMax?: number) =>
  platformOrmConfig(clientUrl, appDatabase, { poolMax });

/** Connects and brings the schema up to date. */
export const openDatabase = (clientUrl: string, poolMax?: number): Promise<Orm> =>
  openPlatformDatabase(clientUrl, appDatabase, { poolMax });

/** Applies pending migrations and creates the app's queues (one process at a time). */
export const migrateToLatest = (orm: Orm, clientUrl: string): Promise<void> =>
  migratePlatformDatabase(orm, clientUrl, queues);

/** DATABASE_URL when set; otherwise an embedded PostgreSQL under DATA_DIR. */
export const connectDatabase = (
  config: AppConfig,
  log: Logger,
  options?: { shareRunning?: boolean },
): Promise<Database> => connectPlatformDatabase(config, log, appDatabase, options);
