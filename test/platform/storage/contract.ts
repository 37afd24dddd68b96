import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/platform/errors.ts';
import type { ObjectStorage } from '../../../src/platform/storage/object-storage.ts';

export interface StorageHarness {
  storage: ObjectStorage;
  /** Files a failed write may have left behind (local: `.part` temp files); `[]` when not inspectable. */
  leftovers(): Promise<string[]>;
}

/** Builds a storage over the shared backend; `now` skews the clock that signs URLs. */
export type HarnessFactory = (options?: { now?: () => number }) => Promise<StorageHarness>;

const MB = 1024 * 1024;
const BIG = 12 * MB + 12_345;

/** Streams `data` in 64 KiB chunks, failing with `failWith` once `failAfter` bytes have gone out. */
export function chunked(
  data: Buffer,
  failAfter?: number,
  failWith = new Error('client went away'),
): Readable {
  return Readable.from(
    (async function* () {
      for (let offset = 0; offset < data.length; offset += 64 * 1024) {
        if (failAfter !== undefined && offset >= failAfter) throw failWith;
        yield data.subarray(offset, offset + 64 * 1024);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })(),
    { objectMode: false },
  );
}

const newKey = (name = 'file.bin') => `audio/${randomUUID()}/${name}`;

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ type: 'not_found_error', code: 'file_not_found' });
}

/** The behaviour every ObjectStorage driver shares; run once per driver. */
export function objectStorageContract(label: string, factory: HarnessFactory): void {
  describe(`ObjectStorage contract: ${label}`, () => {
    let harness: StorageHarness;
    let storage: ObjectStorage;
    let scratch: string;

    beforeAll(async () => {
      harness = await factory();
      storage = harness.storage;
      scratch = await mkdtemp(path.join(tmpdir(), 'tributary-storage-src-'));
    });

    afterAll(async () => {
      await rm(scratch, { recursive: true, force: true });
    });

    it('round-trips a Buffer and reports size and content type', async () => {
      const key = newKey('cover.png');
      const data = randomBytes(100_000);
      expect(await storage.put(key, data, { contentType: 'image/png' })).toEqual({
        size: data.length,
        contentType: 'image/png',
      });
      expect(await storage.head(key)).toEqual({ size: data.length, contentType: 'image/png' });
      expect((await buffer(await storage.get(key))).equals(data)).toBe(true);
    });

    it('round-trips a 12 MB stream (multipart on S3)', async () => {
      const key = newKey('song.wav');
      const data = randomBytes(BIG);
      expect(await storage.put(key, chunked(data), { contentType: 'audio/wav' })).toEqual({
        size: BIG,
        contentType: 'audio/wav',
      });
      expect(await storage.head(key)).toEqual({ size: BIG, contentType: 'audio/wav' });
      expect((await buffer(await storage.get(key))).equals(data)).toBe(true);
    });

    it('round-trips an empty body', async () => {
      const key = newKey('empty.txt');
      expect(await storage.put(key, chunked(Buffer.alloc(0)), { contentType: 'text/plain' })).toEqual({
        size: 0,
        contentType: 'text/plain',
      });
      expect(await storage.head(key)).toEqual({ size: 0, contentType: 'text/plain' });
      expect((await buffer(await storage.get(key))).length).toBe(0);
    });

    it('replaces an existing object, content type included', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('first version'), { contentType: 'text/plain' });
      await storage.put(key, Buffer.from('second'), { contentType: 'application/json' });
      expect(await storage.head(key)).toEqual({ size: 6, contentType: 'application/json' });
      expect((await buffer(await storage.get(key))).toString()).toBe('second');
    });

    it('stores a local file with putFile', async () => {
      const key = newKey('upload.mp3');
      const data = randomBytes(6 * MB);
      const source = path.join(scratch, `${randomUUID()}.mp3`);
      await writeFile(source, data);
      expect(await storage.putFile(key, source, { contentType: 'audio/mpeg' })).toEqual({
        size: data.length,
        contentType: 'audio/mpeg',
      });
      expect(await storage.head(key)).toEqual({ size: data.length, contentType: 'audio/mpeg' });
      expect((await buffer(await storage.get(key))).equals(data)).toBe(true);
    });

    it('head of a missing key is null; get of one rejects with file_not_found', async () => {
      const key = newKey();
      expect(await storage.head(key)).toBeNull();
      await expectNotFound(storage.get(key));
    });

    it('deletes, and deleting a missing key is fine', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('bye'), { contentType: 'text/plain' });
      await storage.delete(key);
      expect(await storage.head(key)).toBeNull();
      await expectNotFound(storage.get(key));
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('a put whose stream fails mid-way leaves no object and no temp file', async () => {
      const key = newKey('broken.wav');
      const failure = new Error('client went away');
      const error = await storage
        .put(key, chunked(randomBytes(BIG), 7 * MB, failure), { contentType: 'audio/wav' })
        .catch((e: unknown) => e);
      expect(error).toBe(failure);
      expect(await storage.head(key)).toBeNull();
      await expectNotFound(storage.get(key));
      expect(await harness.leftovers()).toEqual([]);
    });

    it('a failed put over an existing object leaves the old object untouched', async () => {
      const key = newKey('keep.wav');
      const original = randomBytes(1000);
      await storage.put(key, original, { contentType: 'audio/wav' });
      for (const failAfter of [0, 64 * 1024, 6 * MB]) {
        await expect(
          storage.put(key, chunked(randomBytes(BIG), failAfter), { contentType: 'audio/flac' }),
        ).rejects.toThrow('client went away');
      }
      expect(await storage.head(key)).toEqual({ size: 1000, contentType: 'audio/wav' });
      expect((await buffer(await storage.get(key))).equals(original)).toBe(true);
      expect(await harness.leftovers()).toEqual([]);
    });

    it('a signed URL serves the bytes without a token, with type and download name', async () => {
      const key = newKey('master.flac');
      const data = randomBytes(300_000);
      await storage.put(key, data, { contentType: 'audio/flac' });

      const plain = await fetch(await storage.signedDownloadUrl(key, { expiresInSeconds: 3600 }));
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe('audio/flac');
      expect(Buffer.from(await plain.arrayBuffer()).equals(data)).toBe(true);

      const named = await fetch(
        await storage.signedDownloadUrl(key, {
          expiresInSeconds: 3600,
          fileName: 'Été "live".flac',
          contentType: 'application/octet-stream',
        }),
      );
      expect(named.status).toBe(200);
      expect(named.headers.get('content-type')).toBe('application/octet-stream');
      expect(named.headers.get('content-disposition')).toBe(
        `attachment; filename="_t_ _live_.flac"; filename*=UTF-8''%C3%89t%C3%A9%20%22live%22.flac`,
      );
      expect(Buffer.from(await named.arrayBuffer()).equals(data)).toBe(true);
    });

    it('an expired signed URL is refused', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('secret'), { contentType: 'text/plain' });
      const past = await factory({ now: () => Date.now() - 2 * 3600 * 1000 });
      const url = await past.storage.signedDownloadUrl(key, { expiresInSeconds: 3600 });
      const response = await fetch(url);
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain('secret');
    });

    it('rejects keys that are not plain relative paths', async () => {
      for (const key of [
        '../x',
        '/abs',
        'a//b',
        'a/../b',
        'a/./b',
        '',
        'a/b/',
        'a/.hidden',
        'a\\b',
        'a/%2e/b',
      ]) {
        await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toThrow(
          /Invalid storage key/,
        );
        await expect(storage.head(key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.get(key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.delete(key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.signedDownloadUrl(key, { expiresInSeconds: 60 }), key).rejects.toThrow(
          /Invalid storage key/,
        );
      }
    });
  });
}
