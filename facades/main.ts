import { readFileSync } from 'node:fs';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { connectDatabase } from '../src/platform/db/connect.ts';
import { createLogger } from '../src/platform/logger.ts';
import { assertNodeVersion } from '../src/platform/runtime.ts';
import { startDeliveryRunner } from '../src/workers/delivery-runner.ts';
import { startUploadSweeper } from '../src/workers/upload-sweeper.ts';
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
await services.relay.start();
const running = await startServer(services, config.PORT, config.HOST);
const stopSweeper = startUploadSweeper({
  em: () => database.orm.em.fork(),
  scratch: services.scratch,
  logger,
});
const stopDeliveries = startDeliveryRunner({
  em: () => database.orm.em.fork(),
  logger,
  stepSeconds: config.SANDBOX_STEP_SECONDS,
});
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
  stopSweeper();
  await stopDeliveries();
  await running.close().catch((err) => logger.error({ err }, 'closing the HTTP server'));
  await closeAppServices(services).catch((err) => logger.error({ err }, 'closing services'));
  await database.close().catch((err) => logger.error({ err }, 'closing the database'));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
