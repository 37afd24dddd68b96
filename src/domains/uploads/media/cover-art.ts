import { rm } from 'node:fs/promises';
import sharp from 'sharp';
import { type MediaWarning, mediaRejected } from './warnings.ts';

export const COVER_ART_SIZE = 3000;

/**
 * The largest source decoded (width x height), ~67 megapixels (8192x8192): above any camera a cover is
 * shot with, and it bounds what one decode may allocate.
 */
export const DEFAULT_MAX_COVER_INPUT_PIXELS = 8192 * 8192;

export interface NormaliseCoverArtOptions {
  /** Upload field named in an error's details (default `coverArt`). */
  fieldPath?: string;
  maxInputPixels?: number;
}

export interface NormalisedCoverArt {
  width: typeof COVER_ART_SIZE;
  height: typeof COVER_ART_SIZE;
  /** Source size as displayed, i.e. after the EXIF orientation is applied. */
  sourceWidth: number;
  sourceHeight: number;
  format: 'png';
  warnings: MediaWarning[];
}

/**
 * Turns an uploaded image into the stored cover art: oriented per EXIF, centre-cropped to a square,
 * resized to 3000x3000 (smaller sources are upscaled, with a warning), transparency flattened onto white,
 * written as an sRGB PNG to `outputPath`. Nothing is left at `outputPath` when it fails.
 */
export async function normaliseCoverArt(
  inputPath: string,
  outputPath: string,
  options: NormaliseCoverArtOptions = {},
): Promise<NormalisedCoverArt> {
  const fieldPath = options.fieldPath ?? 'coverArt';
  const limitInputPixels = options.maxInputPixels ?? DEFAULT_MAX_COVER_INPUT_PIXELS;
  try {
    const image = sharp(inputPath, { limitInputPixels });
    const metadata = await image.metadata();
    const { width: sourceWidth, height: sourceHeight } = metadata.autoOrient;
    await image
      .autoOrient()
      .resize(COVER_ART_SIZE, COVER_ART_SIZE, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .png()
      .toFile(outputPath);
    return {
      width: COVER_ART_SIZE,
      height: COVER_ART_SIZE,
      sourceWidth,
      sourceHeight,
      format: 'png',
      warnings: coverArtWarnings(sourceWidth, sourceHeight, metadata.hasAlpha === true),
    };
  } catch (error) {
    await rm(outputPath, { force: true });
    throw coverArtError(error, { outputPath, fieldPath, limitInputPixels });
  }
}

function coverArtWarnings(width: number, height: number, hasAlpha: boolean): MediaWarning[] {
  const warnings: MediaWarning[] = [];
  if (width < COVER_ART_SIZE || height < COVER_ART_SIZE) {
    warnings.push({
      code: 'cover_art_upscaled',
      message:
        `The cover art is ${width}x${height}; it was upscaled to ${COVER_ART_SIZE}x${COVER_ART_SIZE} and ` +
        `may look soft. Upload a source of at least ${COVER_ART_SIZE}x${COVER_ART_SIZE}.`,
    });
  }
  if (width !== height) {
    warnings.push({
      code: 'cover_art_cropped',
      message: `The cover art is ${width}x${height}, not square; its edges were cropped to a centred square.`,
    });
  }
  if (hasAlpha) {
    warnings.push({
      code: 'cover_art_transparency_removed',
      message: 'The cover art has transparency; it was flattened onto a white background.',
    });
  }
  return warnings;
}

interface ErrorContext {
  outputPath: string;
  fieldPath: string;
  limitInputPixels: number;
}

/** The caller's 422 for a bad image; a missing input or an unwritable output stays a server error. */
function coverArtError(error: unknown, context: ErrorContext): unknown {
  const { outputPath, fieldPath, limitInputPixels } = context;
  const reason = error instanceof Error ? error.message : String(error);
  if (reason.startsWith('Input file is missing') || reason.includes(`${outputPath}:`)) return error;
  if (/pixel limit/i.test(reason)) {
    return mediaRejected(
      'image_too_large',
      `The cover art image is too large to process (more than ${limitInputPixels} pixels).`,
      fieldPath,
      error,
    );
  }
  return mediaRejected(
    'undecodable_image',
    'The cover art could not be decoded as an image.',
    fieldPath,
    error,
  );
}
