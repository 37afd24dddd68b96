import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import express from 'express';
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

  it('TRUST_PROXY: loopback by default; false/none or named proxies, as express compiles them; never everyone', () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'None' }).TRUST_PROXY).toBe(false);
    const listed = loadConfig({
      TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.7, fd00::/8, 172.16.0.0/255.240.0.0',
    });
    expect(listed.TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '172.16.0.0/255.240.0.0',
    ]);
    for (const accepted of [listed.TRUST_PROXY, false, ['linklocal', 'uniquelocal', '::1']]) {
      const trust = express().set('trust proxy', accepted).get('trust proxy fn') as (
        a: string,
        i: number,
      ) => boolean;
      expect(typeof trust).toBe('function');
    }
    for (const refused of ['true', '1', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/255.0.0.x', '', ' , ']) {
      expect(() => loadConfig({ TRUST_PROXY: refused }), refused).toThrow(/TRUST_PROXY/);
    }
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
