import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecretKey, open, SECRET_KEY_FILE, seal } from '../../src/platform/secret-box.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-secret-box-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('seal/open', () => {
  const key = randomBytes(32);

  it('round-trips, with a versioned format and a fresh IV each time', () => {
    const sealed = seal('whsec_abc', key);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(open(sealed, key)).toBe('whsec_abc');
    expect(seal('whsec_abc', key)).not.toBe(sealed);
  });

  it('refuses another key, tampering and unknown versions', () => {
    const sealed = seal('secret', key);
    expect(() => open(sealed, randomBytes(32))).toThrow();
    const [v, iv, tag, ct = ''] = sealed.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => open([v, iv, tag, flipped.toString('base64url')].join('.'), key)).toThrow();
    expect(() => open(`v2.${iv}.${tag}.${ct}`, key)).toThrow(/version/);
    expect(() => seal('x', randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('loadSecretKey', () => {
  it('uses the base64 setting when given', () => {
    const key = randomBytes(32);
    expect(loadSecretKey(tempDir(), key.toString('base64')).equals(key)).toBe(true);
    expect(loadSecretKey(tempDir(), key.toString('base64url')).equals(key)).toBe(true);
    expect(() => loadSecretKey(tempDir(), randomBytes(16).toString('base64'))).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('creates a 0600 key file once and reads it back afterwards', () => {
    const dir = tempDir();
    const first = loadSecretKey(dir);
    const file = path.join(dir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first).toHaveLength(32);
    expect(loadSecretKey(dir).equals(first)).toBe(true);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
  });
});
