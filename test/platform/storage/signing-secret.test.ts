import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningSecret, SIGNING_SECRET_FILE } from '../../../src/platform/storage/signing-secret.ts';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tributary-secret-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('loadSigningSecret', () => {
  it('uses STORAGE_SIGNING_SECRET when set, without touching DATA_DIR', async () => {
    const configured = 'c'.repeat(40);
    expect(await loadSigningSecret({ STORAGE_SIGNING_SECRET: configured, DATA_DIR: dataDir })).toBe(
      configured,
    );
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('creates <DATA_DIR>/storage-signing-secret once (0600, 48 random bytes) and reuses it', async () => {
    const dir = path.join(dataDir, 'nested', 'data');
    const first = await loadSigningSecret({ STORAGE_SIGNING_SECRET: undefined, DATA_DIR: dir });
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const file = path.join(dir, SIGNING_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadSigningSecret({ STORAGE_SIGNING_SECRET: undefined, DATA_DIR: dir })).toBe(first);
    expect(await readdir(dir)).toEqual([SIGNING_SECRET_FILE]);
  });

  it('concurrent first starts agree on one secret', async () => {
    const secrets = await Promise.all(
      Array.from({ length: 8 }, () =>
        loadSigningSecret({ STORAGE_SIGNING_SECRET: undefined, DATA_DIR: dataDir }),
      ),
    );
    expect(new Set(secrets).size).toBe(1);
    expect(await readdir(dataDir)).toEqual([SIGNING_SECRET_FILE]);
  });

  it('reads an existing file, trimmed, and refuses one too short to be a secret', async () => {
    const file = path.join(dataDir, SIGNING_SECRET_FILE);
    await writeFile(file, `${'s'.repeat(32)}\n`);
    expect(await loadSigningSecret({ STORAGE_SIGNING_SECRET: undefined, DATA_DIR: dataDir })).toBe(
      's'.repeat(32),
    );
    await writeFile(file, 'short\n');
    await expect(loadSigningSecret({ STORAGE_SIGNING_SECRET: undefined, DATA_DIR: dataDir })).rejects.toThrow(
      /shorter than 32/,
    );
  });
});
