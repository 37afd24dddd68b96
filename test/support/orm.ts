import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
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
