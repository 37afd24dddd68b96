import { buffer } from 'node:stream/consumers';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError, forbidden, invalidRequest } from '../../platform/errors.ts';
import { parseFileUrl } from '../../platform/storage/index.ts';
import type { UploadDeps } from '../uploads/index.ts';
import { DEFAULT_MAX_COVER_INPUT_PIXELS, decodeBase64, findOwnedFile } from '../uploads/index.ts';
import { GENERATED_IMAGE_SIZE } from './image-generator.ts';

/** The caller's names of the two base fields (REST writes snake_case, GraphQL and agents camelCase). */
export interface BaseFieldNames {
  fileUrl: string;
  base64: string;
}

/**
 * The image an edit starts from, as the generators receive it: a 1024×1024 PNG (oriented, centre-cropped,
 * flattened). From `fileUrl`, one of the caller's cover-art files (another account's file or another
 * store: 403, as the spec says); from base64, raw or `data:`, which must decode to a raster image (400).
 */
export async function prepareBaseImage(
  deps: Pick<UploadDeps, 'em' | 'storage'>,
  accountId: string,
  source: { fileUrl?: string | null | undefined; base64?: string | null | undefined },
  fields: BaseFieldNames,
): Promise<Buffer | null> {
  if (source.fileUrl && source.base64) {
    throw invalidRequest(
      `Give either ${fields.fileUrl} or ${fields.base64}, not both.`,
      [{ path: fields.base64, message: `conflicts with ${fields.fileUrl}` }],
      'conflicting_base_image',
    );
  }
  if (source.fileUrl)
    return squareBase(await ownedCoverBytes(deps, accountId, source.fileUrl, fields.fileUrl), fields.fileUrl);
  if (source.base64) {
    const bytes = decodeBase64(source.base64, fields.base64);
    const type = await fileTypeFromBuffer(bytes);
    if (!type?.mime.startsWith('image/')) throw notAnImage(fields.base64, type?.mime ?? null);
    return squareBase(bytes, fields.base64);
  }
  return null;
}

async function ownedCoverBytes(
  deps: Pick<UploadDeps, 'em' | 'storage'>,
  accountId: string,
  fileUrl: string,
  field: string,
): Promise<Buffer> {
  const parsed = parseFileUrl(fileUrl);
  if (!parsed) {
    throw invalidRequest(
      `${field} must be a fileUrl of the form /api/files/cover-art/<user_id>/<name>.`,
      [{ path: field, message: 'not a fileUrl' }],
      'invalid_file_url',
    );
  }
  if (parsed.ownerId !== accountId)
    throw forbidden(`${field} is not one of your files.`, 'base_file_not_owned');
  if (parsed.store !== 'cover-art') {
    throw forbidden(`${field} must be in the cover-art store, not ${parsed.store}.`, 'base_file_wrong_store');
  }
  const file = await findOwnedFile(deps.em, accountId, fileUrl, { store: 'cover-art', fieldPath: field });
  return buffer(await deps.storage.get(file.storageKey));
}

/** Any raster image as the generators take a base: a 1024×1024 sRGB PNG; undecodable → 400 on `field`. */
export async function squareBase(bytes: Buffer, field: string): Promise<Buffer> {
  try {
    return await sharp(bytes, { limitInputPixels: DEFAULT_MAX_COVER_INPUT_PIXELS })
      .autoOrient()
      .resize(GENERATED_IMAGE_SIZE, GENERATED_IMAGE_SIZE, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .png()
      .toBuffer();
  } catch (error) {
    throw notAnImage(field, null, error);
  }
}

function notAnImage(field: string, detected: string | null, cause?: unknown) {
  return new AppError(
    'invalid_request_error',
    'invalid_base_image',
    `${field} must be an image (PNG, JPEG, WebP, …)${detected ? `, not ${detected}` : ''}.`,
    { details: [{ path: field, message: 'not an image' }], cause },
  );
}
