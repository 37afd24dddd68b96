import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { createTestDatabase } from './database.ts';
import { startHttpsReceiver } from './https-receiver.ts';

type Step = () => Promise<void>;

/** Steps pushed here run after the file's tests, last first; a failing step does not stop the others. */
export function useCleanup(): Step[] {
  const cleanup: Step[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });
  return cleanup;
}

/**
 * What a test of server processes starts from: an https receiver (trusted through NODE_EXTRA_CA_CERTS),
 * its own database with an ORM on it, a data directory, and the environment a server process needs.
 */
export async function startProcessWorld(cleanup: Step[], name: string, ormPoolSize: number) {
  const receiver = await startHttpsReceiver();
  cleanup.push(receiver.close);
  const database = await createTestDatabase(name);
  cleanup.push(database.drop);
  const orm = await MikroORM.init(ormConfig(database.url, ormPoolSize));
  cleanup.push(() => orm.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), `tributary-${name}-`));
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NODE_EXTRA_CA_CERTS: receiver.certFile,
    SANDBOX_STEP_SECONDS: '0.2',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  return { receiver, database, orm, dataDir, env };
}
