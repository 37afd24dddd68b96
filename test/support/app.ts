import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, startServer } from '../../facades/server.ts';
import { type AppServices, buildAppServices, closeAppServices } from '../../schema/services.ts';
import { openDatabase } from '../../src/app-database.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { freePort } from '../../src/platform/free-port.ts';
import { createOutboundClient } from '../../src/platform/http/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startBackgroundWork } from '../../src/workers/background.ts';
import { createTestDatabase } from './database.ts';

export interface TestApp {
  url: string;
  services: AppServices;
  /** A fresh EntityManager for arranging and checking rows directly. */
  em(): EntityManager;
  close(): Promise<void>;
}

/**
 * Starts the app on a fresh database of its own, or, when `env.DATABASE_URL` is given, on that one
 * (a second instance beside another; the first one owns and drops it).
 */
export interface TestAppOptions {
  background?: boolean;
  /** Services that replace the configured ones (a distributor adapter of the test's own, say). */
  services?: Partial<
    Pick<AppServices, 'distributor' | 'outbound' | 'webhookOutbound' | 'payments' | 'clock'>
  >;
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, drop: async () => {} }
    : await createTestDatabase('app');
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  const orm = await openDatabase(database.url, 5);
  const services = await buildAppServices(
    config,
    orm,
    createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    'test',
    options.services,
  );
  // The relay always runs (events reach subscribers); the other workers only when a test asks.
  const stopBackground = options.background ? await startBackgroundWork(services) : null;
  if (!stopBackground) await services.relay.start();
  let running: RunningServer;
  try {
    running = await startServer(services, port, '127.0.0.1');
  } catch (error) {
    await orm.close();
    await database.drop();
    throw error;
  }
  return {
    url: running.url,
    services,
    em: () => orm.em.fork(),
    close: async () => {
      await stopBackground?.();
      await running.close(Date.now()); // tests cut what is left at once
      await closeAppServices(services);
      await orm.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts one app for the test file and stops it afterwards. */
export function useTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(env, options);
  });
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('the test app has not started');
    return app;
  };
}

/**
 * The settings of an app whose SSRF-guarded client may reach loopback https servers signed with `cert`
 * (private addresses allowed): spread into startTestApp or useTestApp.
 */
export function reachingLoopback(cert: string): [Record<string, string>, TestAppOptions] {
  return [
    { OUTBOUND_ALLOW_PRIVATE: 'true' },
    {
      services: {
        outbound: createOutboundClient({
          policy: { allowPrivate: true },
          timeoutSeconds: 5,
          extraCaCertificates: [cert],
        }),
      },
    },
  ];
}
