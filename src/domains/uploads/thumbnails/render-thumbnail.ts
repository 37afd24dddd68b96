import sharp from 'sharp';
import { AppError } from '../../../platform/errors.ts';
import { DEFAULT_MAX_COVER_INPUT_PIXELS } from '../media/index.ts';

export const THUMBNAIL_CONTENT_TYPE = 'image/webp';

/**
 * A square WebP of `size` pixels from a cover image's bytes (centre-cropped if the image is not square).
 * Bytes that do not decode as an image are the caller's 422 `undecodable_image`, never a server error.
 */
export async function renderThumbnail(source: Buffer, size: number): Promise<Buffer> {
  try {
    return await sharp(source, { limitInputPixels: DEFAULT_MAX_COVER_INPUT_PIXELS })
      .autoOrient()
      .resize(size, size, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .webp({ quality: 80 })
      .toBuffer();
  } catch (error) {
    throw new AppError(
      'validation_error',
      'undecodable_image',
      'The cover art could not be decoded as an image, so it has no thumbnail; upload the cover again.',
      { cause: error },
    );
  }
}
