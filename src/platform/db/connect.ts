import type { AppConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { type DatabaseModel, type Orm, openDatabase } from './orm.ts';

export interface Database {
  orm: Orm;
  /** `embedded` when the service runs its own PostgreSQL under DATA_DIR. */
  mode: 'external' | 'embedded';
  close(): Promise<void>;
}

/** DATABASE_URL when set; otherwise an embedded PostgreSQL under DATA_DIR. Same driver and migrations. */
export async function connectDatabase(
  config: AppConfig,
  log: Logger,
  model: DatabaseModel,
  options: { shareRunning?: boolean } = {},
): Promise<Database> {
  const connections = {
    poolMax: config.DATABASE_POOL_MAX,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  };
  if (config.DATABASE_URL) {
    const orm = await openDatabase(config.DATABASE_URL, model, connections);
    return { orm, mode: 'external', close: () => orm.close() };
  }
  const embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_POSTGRES_PORT, log, options);
  try {
    const orm = await openDatabase(embedded.url, model, connections);
    return {
      orm,
      mode: 'embedded',
      close: async () => {
        await orm.close();
        await embedded.stop();
      },
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
