import type { Readable } from 'node:stream';

/** Where a stored object lives: `<store>/<ownerId>/<name>`; `store` is `cover-art` or `audio`. */
export type StorageKey = string;

export interface StoredObjectInfo {
  size: number;
  contentType: string;
}

export interface SignedUrlOptions {
  /** Lifetime of the URL; about an hour for downloads. */
  expiresInSeconds: number;
  /** Suggested download name (Content-Disposition). */
  fileName?: string;
  contentType?: string;
}

/**
 * The storage port. Drivers: local disk under DATA_DIR (default) and S3-compatible object storage.
 * Writes are all-or-nothing: a failed or interrupted `put` leaves no object behind.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** Streams `body` to `key` (replacing any object there); resolves with the stored size. */
  put(key: StorageKey, body: Readable | Buffer, options: { contentType: string }): Promise<StoredObjectInfo>;
  /** Stores a local file (moved when the driver can, copied otherwise). */
  putFile(key: StorageKey, filePath: string, options: { contentType: string }): Promise<StoredObjectInfo>;
  head(key: StorageKey): Promise<StoredObjectInfo | null>;
  /**
   * Streams the object; rejects with a not-found AppError when it does not exist. `chunkBytes`: how much
   * the local driver reads at a time, the size of the stream's chunks (64 KiB by default; a reader
   * that keeps no chunk long, an upload, reads more at once and so spends less per byte); S3 streams
   * the chunks the network gives.
   */
  get(key: StorageKey, options?: { chunkBytes?: number }): Promise<Readable>;
  delete(key: StorageKey): Promise<void>;
  /** An absolute URL that serves the bytes without a bearer token until it expires. */
  signedDownloadUrl(key: StorageKey, options: SignedUrlOptions): Promise<string>;
}
