import { createHmac, randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constantTimeEqual } from '../crypto.ts';
import { notFound } from '../errors.ts';
import { assertValidContentType, assertValidStorageKey, isValidStorageKey } from './keys.ts';
import type { ObjectStorage, SignedUrlOptions, StorageKey, StoredObjectInfo } from './object-storage.ts';

/** Where the web facade serves local signed downloads: `${PUBLIC_URL}/api/files/signed/<key>?…`. */
export const LOCAL_SIGNED_PATH_PREFIX = '/api/files/signed/';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MIN_SECRET_LENGTH = 32;

export interface LocalDiskStorageOptions {
  /** Objects live at `<root>/<key>`. */
  root: string;
  /** The app URL (`PUBLIC_URL`) signed URLs start with. */
  publicUrl: string;
  /** HMAC key of signed URLs (at least 32 characters); see `loadSigningSecret`. */
  signingSecret: string;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

export type LocalSignatureResult = 'ok' | 'expired' | 'invalid';

/** The query of a signed URL, as the web facade reads it (values straight from the query string). */
export interface LocalSignedRequest {
  key: string;
  expires: unknown;
  sig: unknown;
  /** Download name (`name` query parameter), when the URL carries one. */
  name?: unknown;
  /** Content type override (`type` query parameter), when the URL carries one. */
  type?: unknown;
}

/**
 * The signed text: the key and expiry, then `name=` and `type=` lines when present. Name and type are
 * percent-encoded so no value can forge a line of its own.
 */
function signature(secret: string, key: string, expires: number, name?: string, type?: string): string {
  let payload = `${key}\n${expires}`;
  if (name) payload += `\nname=${encodeURIComponent(name.toWellFormed())}`;
  if (type) payload += `\ntype=${encodeURIComponent(type.toWellFormed())}`;
  return createHmac('sha256', secret).update(payload, 'utf8').digest('base64url');
}

/** An absent query value is `undefined`, `null` or `''`; anything not a string is malformed. */
function optionalParam(value: unknown): string | undefined | false {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : false;
}

/**
 * Checks a local signed URL. `now` is a Date or epoch milliseconds. A bad or missing signature is
 * `invalid` whatever the expiry says; a good one past its expiry is `expired`.
 */
export function verifyLocalSignature(
  request: LocalSignedRequest,
  secret: string,
  now: Date | number = Date.now(),
): LocalSignatureResult {
  const { key, expires, sig } = request;
  const name = optionalParam(request.name);
  const type = optionalParam(request.type);
  if (!isValidStorageKey(key) || typeof sig !== 'string' || name === false || type === false) {
    return 'invalid';
  }
  const expiresText = typeof expires === 'number' ? String(expires) : expires;
  if (typeof expiresText !== 'string' || !/^\d{1,15}$/.test(expiresText)) return 'invalid';
  const expiresAt = Number(expiresText);
  if (!constantTimeEqual(signature(secret, key, expiresAt, name, type), sig)) return 'invalid';
  const nowMs = typeof now === 'number' ? now : now.getTime();
  return Math.floor(nowMs / 1000) < expiresAt ? 'ok' : 'expired';
}

interface Sidecar {
  contentType: string;
  size: number;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * Objects as plain files under `root`. Writes go to a hidden temp file in the target directory
 * (`.<name>.<random>.part`) and are renamed into place, so readers see the old object or the new one,
 * never a part. The content type lives in a hidden sidecar `.<name>.meta.json` ({contentType, size});
 * the size `head` reports is the file's own. Hidden names cannot clash with keys: key segments never
 * start with a dot.
 */
export function createLocalDiskStorage(options: LocalDiskStorageOptions): ObjectStorage {
  const root = path.resolve(options.root);
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const secret = options.signingSecret;
  const now = options.now ?? Date.now;
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`The storage signing secret must be at least ${MIN_SECRET_LENGTH} characters.`);
  }

  function objectPath(key: StorageKey): string {
    assertValidStorageKey(key);
    const file = path.join(root, ...key.split('/'));
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error(`Storage key escapes the root: ${key}`);
    return file;
  }

  const sidecarPath = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);
  const tempPath = (file: string) =>
    path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);

  /** Writes `data` to `file` through a temp file and a rename. */
  async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
    const temp = tempPath(file);
    try {
      await writeFile(temp, data, { flag: 'wx', flush: true });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function writeSidecar(file: string, sidecar: Sidecar): Promise<void> {
    await writeAtomically(sidecarPath(file), `${JSON.stringify(sidecar)}\n`);
  }

  async function readContentType(file: string): Promise<string> {
    try {
      const parsed: unknown = JSON.parse(await readFile(sidecarPath(file), 'utf8'));
      const contentType = (parsed as Partial<Sidecar> | null)?.contentType;
      return typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE;
    } catch {
      return DEFAULT_CONTENT_TYPE;
    }
  }

  /** Streams `body` into `temp`; on failure waits until the file is closed so it can be removed. */
  async function writeBody(temp: string, body: Readable | Buffer): Promise<void> {
    if (Buffer.isBuffer(body)) {
      await writeFile(temp, body, { flag: 'wx', flush: true });
      return;
    }
    const out = createWriteStream(temp, { flags: 'wx', flush: true });
    try {
      await pipeline(body, out);
    } catch (error) {
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      throw error;
    }
  }

  return {
    driver: 'local',

    async put(key, body, { contentType }): Promise<StoredObjectInfo> {
      const file = objectPath(key);
      assertValidContentType(contentType);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = tempPath(file);
      try {
        await writeBody(temp, body);
        const { size } = await stat(temp);
        await writeSidecar(file, { contentType, size });
        await rename(temp, file);
        return { size, contentType };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },

    async putFile(key, filePath, { contentType }): Promise<StoredObjectInfo> {
      const file = objectPath(key);
      assertValidContentType(contentType);
      const source = await stat(filePath);
      if (!source.isFile()) throw new Error(`Not a regular file: ${filePath}`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeSidecar(file, { contentType, size: source.size });
      try {
        await rename(filePath, file);
      } catch (error) {
        if (errorCode(error) !== 'EXDEV') throw error;
        // Another filesystem: copy next to the target, flush, then rename into place.
        const temp = tempPath(file);
        try {
          await copyFile(filePath, temp, constants.COPYFILE_EXCL);
          const handle = await open(temp, 'r+');
          try {
            await handle.sync();
          } finally {
            await handle.close();
          }
          await rename(temp, file);
        } catch (copyError) {
          await rm(temp, { force: true });
          throw copyError;
        }
      }
      const { size } = await stat(file);
      return { size, contentType };
    },

    async head(key): Promise<StoredObjectInfo | null> {
      const file = objectPath(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { size: info.size, contentType: await readContentType(file) };
      } catch (error) {
        if (MISSING.has(errorCode(error) ?? '')) return null;
        throw error;
      }
    },

    async get(key, options): Promise<Readable> {
      const file = objectPath(key);
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        if (MISSING.has(errorCode(error) ?? '')) throw notFound('File not found.', 'file_not_found');
        throw error;
      }
      try {
        if (!(await handle.stat()).isFile()) throw notFound('File not found.', 'file_not_found');
      } catch (error) {
        await handle.close();
        throw error;
      }
      return handle.createReadStream(options?.chunkBytes ? { highWaterMark: options.chunkBytes } : undefined);
    },

    async delete(key): Promise<void> {
      const file = objectPath(key);
      await rm(file, { force: true });
      await rm(sidecarPath(file), { force: true });
    },

    async signedDownloadUrl(key, options: SignedUrlOptions): Promise<string> {
      assertValidStorageKey(key);
      const { expiresInSeconds, fileName, contentType } = options;
      if (!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
        throw new RangeError(`expiresInSeconds must be positive, got ${expiresInSeconds}`);
      }
      if (contentType) assertValidContentType(contentType);
      const expires = Math.floor(now() / 1000) + Math.ceil(expiresInSeconds);
      const query = new URLSearchParams({ expires: String(expires) });
      if (fileName) query.set('name', fileName.toWellFormed());
      if (contentType) query.set('type', contentType);
      query.set('sig', signature(secret, key, expires, fileName || undefined, contentType || undefined));
      return `${publicUrl}${LOCAL_SIGNED_PATH_PREFIX}${key}?${query}`;
    },
  };
}
