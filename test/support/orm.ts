import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { appDatabase, ormConfig } from '../../src/app-database.ts';
import { ormConfig as platformOrmConfig } from '../../src/platform/db/orm.ts';
import { createTestDatabase } from './database.ts';

/** An ORM on a fresh, migrated database of its own, for tests of domain code without a server. */
export function useTestOrm(label: string): () => MikroORM {
  let orm: MikroORM | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase(label);
    drop = database.drop;
    orm = await MikroORM.init(ormConfig(database.url, 10));
  });
  afterAll(async () => {
    await orm?.close();
    await drop?.();
  });
  return () => {
    if (!orm) throw new Error('the test ORM has not started');
    return orm;
  };
}

/**
 * A fresh, migrated database of its own, and ORMs opened on it on demand with one connection each (every
 * statement of a test runs on the same connection), with or without prepared statements; all closed
 * after the file.
 */
export function useOneConnectionOrms(label: string) {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const orms: MikroORM[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(label);
  });
  afterAll(async () => {
    for (const orm of orms) await orm.close();
    await database?.drop();
  });
  const url = () => {
    if (!database) throw new Error('the test database has not been created');
    return database.url;
  };
  return {
    url,
    open: async (preparedStatements: boolean) => {
      const config = platformOrmConfig(url(), appDatabase, { poolMax: 1, preparedStatements });
      const orm = await MikroORM.init(config);
      orms.push(orm);
      return orm;
    },
  };
}
