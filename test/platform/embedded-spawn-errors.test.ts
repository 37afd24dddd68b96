import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/platform/db/initdb.ts';
import { spawnPostmaster } from '../../src/platform/db/postmaster.ts';
import { StartError } from '../../src/platform/db/start-error.ts';
import { createLogger } from '../../src/platform/logger.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tributary-spawn-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger('silent');

/** A binary that cannot be executed (no execute bit: refused even to root). */
const notExecutable = path.join(dir, 'not-executable');
writeFileSync(notExecutable, '#!/bin/sh\n', { mode: 0o644 });
const missing = path.join(dir, 'missing');

async function failure(start: Promise<unknown>): Promise<StartError> {
  const error = await start.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StartError);
  return error as StartError;
}

describe('a PostgreSQL binary that cannot be started stops start-up with one line, not an error event', () => {
  const cluster = (initdb: string) =>
    createCluster({
      initdb,
      databaseDir: path.join(dir, 'cluster'),
      user: 'u',
      password: 'p',
      runAs: null,
      log,
    });

  it('initdb not executable (EACCES)', async () => {
    const { message } = await failure(cluster(notExecutable));
    expect(message).toBe(
      `The embedded PostgreSQL cannot run ${notExecutable} (EACCES): let this user read and execute it and traverse its directories, or set DATABASE_URL to a PostgreSQL server.`,
    );
  });

  it('initdb missing (ENOENT), and its password file is not left behind', async () => {
    const { message } = await failure(cluster(missing));
    expect(message).toBe(
      `The embedded PostgreSQL is missing ${missing} (ENOENT): run npm install again, or set DATABASE_URL to a PostgreSQL server.`,
    );
    expect(readdirSync(dir).filter((name) => name.startsWith('.initdb-password-'))).toEqual([]);
  });

  it('postgres not executable (EACCES)', async () => {
    const { message } = await failure(
      spawnPostmaster({
        postgres: notExecutable,
        runAs: null,
        databaseDir: path.join(dir, 'cluster'),
        port: 1,
        flags: [],
        log,
      }),
    );
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(`cannot run ${notExecutable} (EACCES)`);
  });
});
