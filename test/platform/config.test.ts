import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, ConfigError, loadConfig } from '../../src/platform/config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_URL).toBe('http://localhost:8080');
    expect(config.DATA_DIR).toBe('./data');
    expect(config.OUTBOUND_ALLOW_PRIVATE).toBe(false);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@y/z' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'maybe' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
  });

  it('cover art is procedural by default; gemini needs its key', () => {
    expect(loadConfig({}).COVER_ART_PROVIDER).toBe('procedural');
    expect(() => loadConfig({ COVER_ART_PROVIDER: 'gemini' })).toThrow(/GEMINI_API_KEY/);
    expect(loadConfig({ COVER_ART_PROVIDER: 'gemini', GEMINI_API_KEY: 'k' }).GEMINI_IMAGE_MODEL).toBe(
      'gemini-3-pro-image-preview',
    );
    expect(() => loadConfig({ COVER_ART_PROVIDER: 'dalle' })).toThrow(/COVER_ART_PROVIDER/);
  });

  it('trims a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).PUBLIC_URL).toBe('https://api.example.com');
  });

  it('.env.example lists every variable the service reads', () => {
    const example = readFileSync('.env.example', 'utf8');
    for (const key of CONFIG_KEYS) expect(example, key).toMatch(new RegExp(`^#?\\s?${key}=`, 'm'));
  });

  it('a bad value stops start-up with a message naming the variable', async () => {
    const failure = await promisify(execFile)(process.execPath, ['facades/start.js'], {
      env: { ...process.env, PORT: '99999' },
    }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('PORT');
  });
});
