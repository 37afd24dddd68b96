import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalDiskStorage } from '../../../src/platform/storage/local-disk.ts';

// `rename` can be made to fail as it does across filesystems (EXDEV); everything else is the real thing.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, rename: vi.fn(actual.rename) };
});

const rename = vi.mocked(fs.rename);
const exdev = () => Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });

let root: string;
let scratch: string;
const storage = () =>
  createLocalDiskStorage({ root, publicUrl: 'http://localhost', signingSecret: 'x'.repeat(32) });

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), 'tributary-exdev-root-'));
  scratch = await fs.mkdtemp(path.join(tmpdir(), 'tributary-exdev-src-'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(scratch, { recursive: true, force: true });
});

describe('local disk putFile across filesystems', () => {
  it('copies next to the target and renames it into place, leaving the source', async () => {
    const source = path.join(scratch, 'in.wav');
    const data = randomBytes(200_000);
    await fs.writeFile(source, data);
    const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    rename.mockImplementation(async (from, to) => {
      if (from === source) throw exdev();
      return actual.rename(from, to);
    });
    try {
      const key = 'audio/owner/in.wav';
      expect(await storage().putFile(key, source, { contentType: 'audio/wav' })).toEqual({
        size: data.length,
        contentType: 'audio/wav',
      });
      expect((await buffer(await storage().get(key))).equals(data)).toBe(true);
      expect(rename).toHaveBeenCalledWith(source, path.join(root, 'audio', 'owner', 'in.wav'));
      expect(existsSync(source)).toBe(true);
      const parts = (await fs.readdir(root, { recursive: true })).filter((f) => f.endsWith('.part'));
      expect(parts).toEqual([]);
    } finally {
      rename.mockReset();
    }
  });

  it('a failed copy leaves no temp file and no object', async () => {
    const source = path.join(scratch, 'other.wav');
    await fs.writeFile(source, randomBytes(1000));
    const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    rename.mockImplementation(async (from, to) => {
      if (from === source) throw exdev();
      if (String(from).endsWith('.part') && String(to).endsWith('other.wav')) throw new Error('disk on fire');
      return actual.rename(from, to);
    });
    try {
      const key = 'audio/owner/other.wav';
      await expect(storage().putFile(key, source, { contentType: 'audio/wav' })).rejects.toThrow(
        'disk on fire',
      );
      expect(await storage().head(key)).toBeNull();
      const parts = (await fs.readdir(root, { recursive: true })).filter((f) => f.endsWith('.part'));
      expect(parts).toEqual([]);
    } finally {
      rename.mockReset();
    }
  });
});
