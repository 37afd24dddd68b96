import { buffer } from 'node:stream/consumers';
import { AppError, notFound } from '../../../platform/errors.ts';
import { storageKey, thumbnailKey } from '../../../platform/storage/index.ts';
import type { ObjectStorage } from '../../../platform/storage/object-storage.ts';
import { renderThumbnail, THUMBNAIL_CONTENT_TYPE } from './render-thumbnail.ts';
import {
  type CoverFile,
  signThumbnailUrl,
  type ThumbnailRequest,
  thumbnailSigningKey,
  verifyThumbnailUrl,
} from './thumbnail-url.ts';

export interface StoredThumbnail {
  storageKey: string;
  contentType: string;
  size: number;
}

const noSuchThumbnail = () => new AppError('not_found_error', 'signed_url_invalid', 'No such thumbnail.');

/**
 * Cover thumbnails: signed same-origin URLs (minted for the caller's own cover files only), and the
 * images behind them, made once per file and size on first request and kept in the object storage
 * (`thumbnails/<ownerId>/<size>/<name>`) beside the files. Concurrent first requests for one thumbnail
 * in this process share one rendering.
 */
export class CoverThumbnails {
  readonly #storage: ObjectStorage;
  readonly #key: Buffer;
  readonly #publicUrl: string;
  readonly #rendering = new Map<string, Promise<StoredThumbnail>>();

  constructor(options: { storage: ObjectStorage; signingSecret: string; publicUrl: string }) {
    this.#storage = options.storage;
    this.#key = thumbnailSigningKey(options.signingSecret);
    this.#publicUrl = options.publicUrl;
  }

  /** A signed URL of the file's thumbnail; the caller has checked the file is the account's cover. */
  urlFor(file: CoverFile, size: number, now: Date): { url: string; expiresAt: Date } {
    return signThumbnailUrl(this.#key, this.#publicUrl, file, size, now);
  }

  /**
   * The stored thumbnail a signed URL names, made now if it is not yet. Tampered: 404
   * `signed_url_invalid`; expired: 403 `signed_url_expired`; no cover file behind it: 404
   * `file_not_found`; a cover that does not decode: 422 `undecodable_image`.
   */
  async serve(request: ThumbnailRequest, now: Date): Promise<StoredThumbnail> {
    const verdict = verifyThumbnailUrl(this.#key, request, now);
    if (verdict === 'expired') {
      throw new AppError(
        'permission_error',
        'signed_url_expired',
        'This thumbnail link has expired; read coverThumbnail again for a new one.',
      );
    }
    if (verdict !== 'ok') throw noSuchThumbnail();
    const size = Number(request.size);
    const key = thumbnailKey(request.ownerId, request.name, size);
    const running = this.#rendering.get(key);
    if (running) return running;
    const made = this.#stored(key, request, size).finally(() => this.#rendering.delete(key));
    this.#rendering.set(key, made);
    return made;
  }

  async #stored(key: string, file: CoverFile, size: number): Promise<StoredThumbnail> {
    const kept = await this.#storage.head(key);
    if (kept) return { storageKey: key, contentType: kept.contentType, size: kept.size };
    const source = storageKey('cover-art', file.ownerId, file.name);
    if (!(await this.#storage.head(source))) throw notFound('The cover art file is gone.', 'file_not_found');
    const image = await renderThumbnail(await buffer(await this.#storage.get(source)), size);
    const stored = await this.#storage.put(key, image, { contentType: THUMBNAIL_CONTENT_TYPE });
    return { storageKey: key, contentType: stored.contentType, size: stored.size };
  }
}
