import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, startServer } from '../../facades/server.ts';
import type { AppServices } from '../../schema/services.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/db/orm.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase } from './database.ts';

export interface TestApp {
  url: string;
  services: AppServices;
  /** A fresh EntityManager for arranging and checking rows directly. */
  em(): EntityManager;
  close(): Promise<void>;
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase('app');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, ...env });
  const orm = await openDatabase(database.url, 5);
  const services: AppServices = {
    config,
    orm,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    startedAt: new Date(),
    version: 'test',
  };
  let running: RunningServer;
  try {
    running = await startServer(services, 0, '127.0.0.1');
  } catch (error) {
    await orm.close();
    await database.drop();
    throw error;
  }
  services.config.PUBLIC_URL = running.url;
  return {
    url: running.url,
    services,
    em: () => orm.em.fork(),
    close: async () => {
      await running.close();
      await orm.close();
      await database.drop();
    },
  };
}

/** Starts one app for the test file and stops it afterwards. */
export function useTestApp(env: Record<string, string> = {}): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(env);
  });
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('the test app has not started');
    return app;
  };
}
