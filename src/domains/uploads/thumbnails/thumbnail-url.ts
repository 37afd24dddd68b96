import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../../platform/crypto.ts';
import { isValidStorageKey } from '../../../platform/storage/index.ts';
import { THUMBNAIL_URL_WINDOW_SECONDS } from './thumbnail-sizes.ts';

/** Where the service serves thumbnails: `${PUBLIC_URL}/api/files/thumbnails/<size>/<ownerId>/<name>`. */
export const THUMBNAIL_PATH_PREFIX = '/api/files/thumbnails/';

/** A cover file a thumbnail is made of, by its owner and stored name. */
export interface CoverFile {
  ownerId: string;
  name: string;
}

/** A thumbnail URL as the route reads it: path segments and query values, unchecked. */
export interface ThumbnailRequest extends CoverFile {
  size: string;
  expires: string;
  sig: string;
}

export type ThumbnailVerdict = 'ok' | 'expired' | 'invalid';

/**
 * The thumbnail URLs' own key, derived from the storage signing secret: a thumbnail signature can
 * never pass for a download signature, nor the reverse.
 */
export const thumbnailSigningKey = (secret: string): Buffer =>
  createHmac('sha256', secret).update('cover thumbnails').digest();

const signature = (key: Buffer, file: CoverFile, size: number, expires: number) =>
  createHmac('sha256', key)
    .update(`${file.ownerId}/${file.name}\n${size}\n${expires}`, 'utf8')
    .digest('base64url');

/** The end of the window after the one `now` is in (see THUMBNAIL_URL_WINDOW_SECONDS). */
export function thumbnailExpiry(now: Date): number {
  const window = THUMBNAIL_URL_WINDOW_SECONDS;
  return (Math.floor(now.getTime() / 1000 / window) + 2) * window;
}

export function signThumbnailUrl(
  key: Buffer,
  publicUrl: string,
  file: CoverFile,
  size: number,
  now: Date,
): { url: string; expiresAt: Date } {
  const expires = thumbnailExpiry(now);
  const path = [size, file.ownerId, file.name].map((part) => encodeURIComponent(part)).join('/');
  const query = new URLSearchParams({ expires: String(expires), sig: signature(key, file, size, expires) });
  return {
    url: `${publicUrl.replace(/\/+$/, '')}${THUMBNAIL_PATH_PREFIX}${path}?${query}`,
    expiresAt: new Date(expires * 1000),
  };
}

/** A bad or missing signature is `invalid` whatever the expiry says; a good one past it is `expired`. */
export function verifyThumbnailUrl(key: Buffer, request: ThumbnailRequest, now: Date): ThumbnailVerdict {
  const segment = (value: string) => isValidStorageKey(value) && !value.includes('/');
  if (!segment(request.ownerId) || !segment(request.name)) return 'invalid';
  if (!/^\d{1,4}$/.test(request.size) || !/^\d{1,15}$/.test(request.expires)) return 'invalid';
  const expected = signature(key, request, Number(request.size), Number(request.expires));
  if (!constantTimeEqual(expected, request.sig)) return 'invalid';
  return Math.floor(now.getTime() / 1000) < Number(request.expires) ? 'ok' : 'expired';
}
