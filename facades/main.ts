import { existsSync, readFileSync } from 'node:fs';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { connectDatabase } from '../src/platform/db/connect.ts';
import { StartError } from '../src/platform/db/start-error.ts';
import { createLogger } from '../src/platform/logger.ts';
import { assertNodeVersion } from '../src/platform/runtime.ts';
import { startBackgroundWork } from '../src/workers/background.ts';
import { startServer } from './server.ts';

assertNodeVersion();

// Settings from a .env file in the working directory; variables set in the environment win.
if (existsSync('.env')) process.loadEnvFile('.env');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(config.LOG_LEVEL);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** A problem the person starting the service can fix: one line naming what to change, no stack. */
function stopOnStartError(error: unknown): never {
  if (error instanceof StartError) console.error(error.message);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`PORT ${config.PORT} is in use by another program: set PORT to a free port.`);
  } else throw error;
  process.exit(1);
}

// Signals are ours from the first moment: a Ctrl-C during start-up stops what has started so far, in
// reverse order, the embedded PostgreSQL (in a session of its own, so the Ctrl-C did not reach it) last.
const closers: { name: string; close: () => Promise<void> }[] = [];
let opening: Promise<unknown> = Promise.resolve();
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  await opening;
  for (const { name, close } of closers.reverse()) {
    await close().catch((err) => logger.error({ err }, `stopping: ${name}`));
  }
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

/** One start step: what it opens is closed by a shutdown, even one that began while it was opening. */
async function step<T>(name: string, open: () => Promise<T>, close: (value: T) => Promise<void>): Promise<T> {
  const opened = open().then((value) => {
    closers.push({ name, close: () => close(value) });
    return value;
  });
  opening = opened.catch(() => {});
  const value = await opened;
  if (stopping) await new Promise(() => {}); // the shutdown in progress closes it and exits
  return value;
}

const database = await step(
  'the database',
  () => connectDatabase(config, logger).catch(stopOnStartError),
  (db) => db.close(),
);
const services = await step(
  'services',
  () => buildAppServices(config, database.orm, logger, version),
  closeAppServices,
);
const running = await step(
  'the HTTP server',
  () =>
    startServer(services, config.PORT, config.HOST).catch(async (error) => {
      await closeAppServices(services).catch(() => {});
      await database.close().catch(() => {});
      return stopOnStartError(error);
    }),
  (server) => server.close(),
);
await step(
  'background work',
  () => startBackgroundWork(services),
  (stop) => stop(),
);
logger.info(
  { url: running.url, database: database.mode, publicUrl: config.PUBLIC_URL },
  'Tributary is serving',
);

// The last line of defence, not a fix: a bug that escapes every handler is logged and the service goes
// on serving the other requests. Each such line is a defect to fix where the error arose.
process.on('uncaughtException', (err) => logger.error({ err }, 'uncaught exception (kept serving)'));
process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection (kept serving)'));
