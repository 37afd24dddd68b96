import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { AppError } from '../../../platform/errors.ts';

export type SniffedKind = 'image' | 'audio' | 'other';

export interface SniffedFile {
  kind: SniffedKind;
  /** The MIME type detected from the content (`null` when nothing was recognised). */
  mime: string | null;
  ext: string | null;
}

/** The upload fields whose content is checked: cover art must be an image, audio must be audio. */
export type MediaField = 'coverArt' | 'audio';

/**
 * Containers file-type reports as video that often hold audio only (an `.mp4`/`.webm`/`.mka` export, a
 * browser recording, an Ogg with an unusual codec). They count as audio when their tracks say so.
 */
const AMBIGUOUS_CONTAINERS = new Set([
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'video/matroska',
  'video/x-matroska',
  'video/ogg',
  'application/ogg',
]);

/**
 * What a file is, from its content alone (never the client's name or MIME type). file-type reads the
 * head of the file; an ambiguous container is also read for its track list (headers, not the samples).
 */
export async function sniffFile(path: string): Promise<SniffedFile> {
  const detected = await fileTypeFromFile(path);
  if (!detected) return { kind: 'other', mime: null, ext: null };
  const { mime, ext } = detected;
  if (mime.startsWith('image/')) return { kind: 'image', mime, ext };
  if (mime.startsWith('audio/')) return { kind: 'audio', mime, ext };
  if (AMBIGUOUS_CONTAINERS.has(mime) && (await holdsAudioOnly(path))) return { kind: 'audio', mime, ext };
  return { kind: 'other', mime, ext };
}

async function holdsAudioOnly(path: string): Promise<boolean> {
  try {
    const { format } = await parseFile(path, { skipCovers: true });
    return format.hasVideo !== true && format.codec !== undefined && format.sampleRate !== undefined;
  } catch {
    return false;
  }
}

const EXPECTED: Record<MediaField, { kind: SniffedKind; noun: string }> = {
  coverArt: { kind: 'image', noun: 'an image' },
  audio: { kind: 'audio', noun: 'audio' },
};

/**
 * Throws a 422 (`validation_error`, code `unsupported_file_type`) unless the sniffed content suits the
 * field: an image for `coverArt`, audio for `audio`.
 */
export function assertKind(sniffed: SniffedFile, expected: MediaField, fieldPath: string = expected): void {
  const want = EXPECTED[expected];
  if (sniffed.kind === want.kind) return;
  const got = sniffed.mime ?? 'content of an unrecognised type';
  const message = `expected ${want.noun} for ${expected}, got ${got}`;
  throw new AppError('validation_error', 'unsupported_file_type', message, {
    details: [{ path: fieldPath, message }],
  });
}
