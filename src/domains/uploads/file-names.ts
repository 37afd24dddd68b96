import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * The stored name: the caller's name made URL-safe, a short random suffix (names never collide and
 * never reveal one another), and the extension of the normalised format.
 */
export function storedFileName(requested: string | null | undefined, extension: 'png' | 'flac'): string {
  const base = path
    .basename(requested ?? '', path.extname(requested ?? ''))
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${base || 'file'}-${randomBytes(4).toString('hex')}.${extension}`;
}

/** A name for a file imported from a URL when the caller gives none: the last path segment. */
export function nameFromUrl(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '') || 'import';
  } catch {
    return 'import';
  }
}
