import type { StorageKey } from './object-storage.ts';

/** The stores a public `fileUrl` can point into. */
export type FileStore = 'cover-art' | 'audio';
/** Every top-level store of a storage key; `tmp` holds staging objects that never get a `fileUrl`. */
export type StorageStore = FileStore | 'tmp';

export interface ParsedFileUrl {
  store: FileStore;
  ownerId: string;
  name: string;
}

/**
 * One key segment: letters, digits, `.`, `_`, `-`; never starting with a dot (so no `.`/`..` and no clash
 * with the local driver's hidden temp and sidecar files), at most 200 characters.
 */
const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}';
const SEGMENT_RE = new RegExp(`^${SEGMENT}$`);
const KEY_RE = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
const MAX_KEY_LENGTH = 1024;

const FILE_PATH_RE = new RegExp(`^/api/files/(cover-art|audio)/(${SEGMENT})/(${SEGMENT})$`);
/** `http(s)://host[:port]` then the path; no userinfo, query or fragment survives the path match. */
const ABSOLUTE_PREFIX_RE = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?=\/)/;
const MAX_FILE_URL_LENGTH = 2048;

export function isValidStorageKey(key: unknown): key is StorageKey {
  return typeof key === 'string' && key.length <= MAX_KEY_LENGTH && KEY_RE.test(key);
}

/** Defence in depth: keys are built by our code, so an invalid one is a bug, not a client error. */
export function assertValidStorageKey(key: unknown): asserts key is StorageKey {
  if (!isValidStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** Content types end up in response headers: refuse anything that is not a plain header value. */
export function assertValidContentType(contentType: unknown): asserts contentType is string {
  if (typeof contentType !== 'string' || !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(contentType)) {
    throw new Error(`Invalid content type: ${JSON.stringify(contentType)}`);
  }
}

function assertSegment(what: string, value: string): void {
  if (!SEGMENT_RE.test(value)) throw new Error(`Invalid ${what} for a storage key: ${JSON.stringify(value)}`);
}

/** `<store>/<ownerId>/<name>`; each part must be one key segment (see `isValidStorageKey`). */
export function storageKey(store: StorageStore, ownerId: string, name: string): StorageKey {
  if (store !== 'cover-art' && store !== 'audio' && store !== 'tmp') {
    throw new Error(`Invalid store: ${JSON.stringify(store)}`);
  }
  assertSegment('owner id', ownerId);
  assertSegment('name', name);
  return `${store}/${ownerId}/${name}`;
}

/**
 * A cover thumbnail, kept beside the files and never given a `fileUrl`:
 * `thumbnails/<ownerId>/<size>/<name>`, made from `cover-art/<ownerId>/<name>`.
 */
export function thumbnailKey(ownerId: string, name: string, size: number): StorageKey {
  if (!Number.isInteger(size) || size <= 0) throw new Error(`Invalid thumbnail size: ${size}`);
  assertSegment('owner id', ownerId);
  assertSegment('name', name);
  return `thumbnails/${ownerId}/${size}/${name}`;
}

/** The relative `fileUrl` clients see: `/api/files/<store>/<ownerId>/<name>`. */
export function fileUrlFor(store: FileStore, ownerId: string, name: string): string {
  if (store !== 'cover-art' && store !== 'audio')
    throw new Error(`Invalid file store: ${JSON.stringify(store)}`);
  assertSegment('owner id', ownerId);
  assertSegment('name', name);
  return `/api/files/${store}/${ownerId}/${name}`;
}

/**
 * Reads a `fileUrl` as clients send it: exactly `/api/files/(cover-art|audio)/<ownerId>/<name>`, or that
 * path on any `http(s)` host. Anything else (other paths, `..`, percent-encoding, query strings,
 * fragments, trailing slashes, surrounding whitespace) yields null. Ownership is the caller's check.
 */
export function parseFileUrl(fileUrl: unknown): ParsedFileUrl | null {
  if (typeof fileUrl !== 'string' || fileUrl.length > MAX_FILE_URL_LENGTH) return null;
  let path = fileUrl;
  if (!path.startsWith('/')) {
    const prefix = ABSOLUTE_PREFIX_RE.exec(path);
    if (!prefix) return null;
    path = path.slice(prefix[0].length);
  }
  const match = FILE_PATH_RE.exec(path);
  if (!match) return null;
  const [, store, ownerId, name] = match;
  if ((store !== 'cover-art' && store !== 'audio') || ownerId === undefined || name === undefined)
    return null;
  return { store, ownerId, name };
}

/** The storage key a parsed `fileUrl` points at. */
export function storageKeyForFile(file: ParsedFileUrl): StorageKey {
  return storageKey(file.store, file.ownerId, file.name);
}
