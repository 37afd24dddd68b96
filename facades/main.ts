import { existsSync, readFileSync } from 'node:fs';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { checkSettingsAgainstData } from '../schema/start-checks.ts';
import { connectDatabase } from '../src/app-database.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
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

/** The exit code of a stop that had to cut work at the end of its grace period (docs/scale.md). */
const EXIT_GRACE_EXCEEDED = 3;
/** Past the grace: how long closing the pools may take before the process exits regardless. */
const CLOSE_AFTER_GRACE_MS = 5_000;
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
//
// A stop (docs/scale.md, "Stopping"): the HTTP server takes no new connections at once; then each step
// closes in reverse order, given the same deadline, SHUTDOWN_GRACE_SECONDS after the signal: background
// work and requests in flight finish (or are cut at the deadline), and the services and the database
// close last, once nothing uses them.
interface Closer {
  name: string;
  /** Called at the signal (or as soon as the step has opened): stops taking new work. */
  stopAccepting?: () => void;
  /** Finishes the work in hand until the deadline (epoch ms); resolves with how much was cut. */
  close: (deadline: number) => Promise<number | undefined>;
}
const closers: Closer[] = [];
const accepting = new Set<Closer>();
let opening: Promise<unknown> = Promise.resolve();
let stopping = false;

function stopAccepting(): void {
  for (const closer of accepting) closer.stopAccepting?.();
  accepting.clear();
}

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
  const deadline = Date.now() + graceMs;
  logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down');
  // The last resort, for a close that hangs once the grace is over (a pool that never empties).
  const force = setTimeout(() => {
    logger.error({ afterSeconds: (graceMs + CLOSE_AFTER_GRACE_MS) / 1000 }, 'stopping hung: exiting');
    process.exit(EXIT_GRACE_EXCEEDED);
  }, graceMs + CLOSE_AFTER_GRACE_MS);
  force.unref();
  stopAccepting();
  await opening;
  stopAccepting(); // the step that was opening at the signal
  let cut = 0;
  for (const { name, close } of [...closers].reverse()) {
    cut += await close(deadline).then(
      (count) => count ?? 0,
      (err) => {
        logger.error({ err }, `stopping: ${name}`);
        return 0;
      },
    );
  }
  logger.info({ cut }, 'stopped');
  process.exit(cut > 0 ? EXIT_GRACE_EXCEEDED : 0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

/** One start step: what it opens is closed by a shutdown, even one that began while it was opening. */
async function step<T>(
  name: string,
  open: () => Promise<T>,
  close: (value: T, deadline: number) => Promise<number | undefined>,
  stopAcceptingOf?: (value: T) => void,
): Promise<T> {
  const opened = open().then((value) => {
    const closer: Closer = {
      name,
      close: (deadline) => close(value, deadline),
      stopAccepting: stopAcceptingOf && (() => stopAcceptingOf(value)),
    };
    closers.push(closer);
    accepting.add(closer);
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
  async (db) => {
    await db.close();
    return 0;
  },
);
await checkSettingsAgainstData(config, database.orm).catch(async (error) => {
  await database.close().catch(() => {});
  return stopOnStartError(error);
});
const services = await step(
  'services',
  () => buildAppServices(config, database.orm, logger, version),
  async (opened) => {
    await closeAppServices(opened);
    return 0;
  },
);
const running = await step(
  'the HTTP server',
  () =>
    startServer(services, config.PORT, config.HOST).catch(async (error) => {
      await closeAppServices(services).catch(() => {});
      await database.close().catch(() => {});
      return stopOnStartError(error);
    }),
  async (server, deadline) => {
    const cut = await server.close(deadline);
    if (cut.requests > 0 || cut.webSockets > 0) {
      logger.warn(
        { requests: cut.requests, webSockets: cut.webSockets, graceSeconds: config.SHUTDOWN_GRACE_SECONDS },
        `grace period over: cut ${cut.requests} ${cut.requests === 1 ? 'request' : 'requests'} in flight`,
      );
    }
    return cut.requests + cut.webSockets;
  },
  (server) => server.stopAccepting(),
);
await step(
  'background work',
  () => startBackgroundWork(services),
  async (stop, deadline) => {
    const cut = await stop(deadline);
    if (cut > 0) logger.warn({ jobs: cut }, 'grace period over: background jobs handed back');
    return cut;
  },
);
logger.info(
  { url: running.url, database: database.mode, publicUrl: config.PUBLIC_URL },
  'Tributary is serving',
);

// The last line of defence, not a fix: a bug that escapes every handler is logged and the service goes
// on serving the other requests. Each such line is a defect to fix where the error arose.
process.on('uncaughtException', (err) => logger.error({ err }, 'uncaught exception (kept serving)'));
process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection (kept serving)'));
