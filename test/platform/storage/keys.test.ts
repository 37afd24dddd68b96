import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import {
  createStorage,
  fileUrlFor,
  isValidStorageKey,
  localStorageRoot,
  parseFileUrl,
  storageKey,
  storageKeyForFile,
} from '../../../src/platform/storage/index.ts';

const USER = '0b6f1c1e-4b7a-4c2e-9f31-6a1d2e3f4a5b';

describe('storage keys', () => {
  it('storageKey joins store, owner and name', () => {
    expect(storageKey('cover-art', USER, 'art.png')).toBe(`cover-art/${USER}/art.png`);
    expect(storageKey('audio', USER, 'a_b-c.1.wav')).toBe(`audio/${USER}/a_b-c.1.wav`);
    expect(storageKey('tmp', USER, 'upload-1')).toBe(`tmp/${USER}/upload-1`);
  });

  it('storageKey refuses parts that are not single safe segments', () => {
    for (const bad of [
      '',
      '.',
      '..',
      '../x',
      'a/b',
      '.hidden',
      'a b',
      'a%2Fb',
      'é',
      'a\\b',
      'x'.repeat(201),
    ]) {
      expect(() => storageKey('audio', USER, bad), bad).toThrow(/Invalid name/);
      expect(() => storageKey('audio', bad, 'x.wav'), bad).toThrow(/Invalid owner id/);
    }
    expect(() => storageKey('other' as 'audio', USER, 'x')).toThrow(/Invalid store/);
  });

  it('isValidStorageKey', () => {
    expect(isValidStorageKey('audio/u/x.wav')).toBe(true);
    expect(isValidStorageKey('single')).toBe(true);
    for (const bad of ['../x', '/abs', 'a//b', 'a/b/', 'a/../b', 'a/./b', '', 'a/.b', 'a\nb', 42, null]) {
      expect(isValidStorageKey(bad), String(bad)).toBe(false);
    }
  });
});

describe('file URLs', () => {
  it('fileUrlFor builds the documented relative forms', () => {
    expect(fileUrlFor('cover-art', USER, 'art.png')).toBe(`/api/files/cover-art/${USER}/art.png`);
    expect(fileUrlFor('audio', USER, 'song.wav')).toBe(`/api/files/audio/${USER}/song.wav`);
    expect(() => fileUrlFor('tmp' as 'audio', USER, 'x')).toThrow();
    expect(() => fileUrlFor('audio', USER, '../x')).toThrow();
  });

  it('parseFileUrl accepts the two documented forms, relative or on any host', () => {
    for (const prefix of ['', 'https://app.example.com', 'http://localhost:8080', 'https://[::1]:8443']) {
      expect(parseFileUrl(`${prefix}/api/files/cover-art/${USER}/art.png`)).toEqual({
        store: 'cover-art',
        ownerId: USER,
        name: 'art.png',
      });
      expect(parseFileUrl(`${prefix}/api/files/audio/${USER}/song.wav`)).toEqual({
        store: 'audio',
        ownerId: USER,
        name: 'song.wav',
      });
    }
  });

  it('parseFileUrl round-trips fileUrlFor and maps to the storage key', () => {
    const parsed = parseFileUrl(fileUrlFor('audio', USER, 'song.wav'));
    expect(parsed).not.toBeNull();
    expect(storageKeyForFile(parsed!)).toBe(`audio/${USER}/song.wav`);
  });

  it('parseFileUrl rejects everything else', () => {
    const bad = [
      `/api/files/tmp/${USER}/x`,
      `/api/files/signed/audio/${USER}/x`,
      `/api/files/audio/${USER}`,
      `/api/files/audio/${USER}/`,
      `/api/files/audio/${USER}/a/b`,
      `/api/files/audio/${USER}/..`,
      `/api/files/audio/../${USER}/x`,
      `/api/files/audio/${USER}/../../cover-art/x`,
      `/api/files/audio/${USER}/%2e%2e`,
      `/api/files/audio/${USER}%2Fx/y`,
      `/api/files/audio/${USER}/a%2Fb`,
      `/api/files/audio/${USER}/x.wav?sig=1`,
      `/api/files/audio/${USER}/x.wav#frag`,
      `/api/files/audio//x.wav`,
      `/api/files//audio/${USER}/x.wav`,
      `/api/files/Audio/${USER}/x.wav`,
      `/api/files/audio/${USER}/.hidden`,
      `/v1/api/files/audio/${USER}/x.wav`,
      `api/files/audio/${USER}/x.wav`,
      `//evil.example/api/files/audio/${USER}/x.wav`,
      ` /api/files/audio/${USER}/x.wav`,
      `/api/files/audio/${USER}/x.wav `,
      `/api/files/audio/${USER}/x.wav\n`,
      `ftp://host/api/files/audio/${USER}/x.wav`,
      `https://user:pw@host/api/files/audio/${USER}/x.wav`,
      `https://host/prefix/api/files/audio/${USER}/x.wav`,
      `https://host?/api/files/audio/${USER}/x.wav`,
      `file:///api/files/audio/${USER}/x.wav`,
      `/api/files/audio/${USER}/${'x'.repeat(2100)}`,
      '',
    ];
    for (const url of bad) expect(parseFileUrl(url), url).toBeNull();
    expect(parseFileUrl(undefined)).toBeNull();
    expect(parseFileUrl(42)).toBeNull();
  });
});

describe('createStorage', () => {
  const signingSecret = 'z'.repeat(32);

  it('picks local disk by default, under <DATA_DIR>/files', () => {
    const config = loadConfig({ DATA_DIR: '/srv/tributary' });
    expect(createStorage(config, { signingSecret }).driver).toBe('local');
    expect(localStorageRoot(config)).toBe('/srv/tributary/files');
  });

  it('picks S3 when STORAGE_DRIVER=s3', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'bucket',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    const storage = createStorage(config, { signingSecret });
    expect(storage.driver).toBe('s3');
  });
});
