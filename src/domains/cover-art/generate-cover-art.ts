import { rm, writeFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { AppError, conflict, invalidRequest, unavailable } from '../../platform/errors.ts';
import type { RateLimits } from '../../platform/rate-limit/index.ts';
import { fileUrlFor } from '../../platform/storage/index.ts';
import { findOwnedRelease, Release, saveDraft } from '../releases/index.ts';
import type { StoredFile, UploadDeps } from '../uploads/index.ts';
import { ingestFile } from '../uploads/index.ts';
import { consumeCoverArtAllowance } from './allowance.ts';
import { type BaseFieldNames, prepareBaseImage } from './base-image.ts';
import { ASPECT_RATIO, IMAGE_SIZE, type ImageGenerator } from './image-generator.ts';
import { COVER_ART_PROMPT } from './limits.ts';

export interface CoverArtDeps extends UploadDeps {
  rateLimits: RateLimits;
  /** Null when the deployment turned generation off (COVER_ART_PROVIDER=none). */
  generator: ImageGenerator | null;
}

export interface CoverArtInput {
  accountId: string;
  prompt: string;
  baseFileUrl?: string | null | undefined;
  baseImageBase64?: string | null | undefined;
  /** Informative only: the bytes decide what the base image is. */
  baseImageMimeType?: string | null | undefined;
  returnBase64?: boolean | null | undefined;
  fileName?: string | null | undefined;
  releaseId?: string | null | undefined;
  conversationId?: string | null | undefined;
}

/** The spec's "Cover art result". */
export interface CoverArtResult {
  fileUrl: string;
  bucket: 'cover-art';
  key: string;
  fileName: string;
  prompt: string;
  model: string;
  modelVariant: string;
  imageSize: typeof IMAGE_SIZE;
  aspectRatio: typeof ASPECT_RATIO;
  edited: boolean;
  rateLimit: { remaining: number };
  imageBase64: string | null;
  file: StoredFile;
}

/** Field names in the caller's terms, for error paths. */
export interface CoverArtFieldNames extends BaseFieldNames {
  prompt: string;
  releaseId: string;
}

export const CAMEL_FIELDS: CoverArtFieldNames = {
  prompt: 'prompt',
  fileUrl: 'baseFileUrl',
  base64: 'baseImageBase64',
  releaseId: 'releaseId',
};

/** The REST body's names (`POST /v1/cover-art`). */
export const SNAKE_FIELDS: CoverArtFieldNames = {
  prompt: 'prompt',
  fileUrl: 'base_file_url',
  base64: 'base_image_base64',
  releaseId: 'release_id',
};

/**
 * Generates cover art from a prompt, or edits a base image by it, and stores it like any upload (3000×3000
 * PNG in the cover-art store). Checks come first and cost nothing; then one generation is taken from the
 * account's allowance (shared by every surface), the image is made, stored and, with a release or
 * conversation, set as the draft's cover. No credits are charged.
 */
export async function generateCoverArt(
  deps: CoverArtDeps,
  input: CoverArtInput,
  fields: CoverArtFieldNames = CAMEL_FIELDS,
): Promise<CoverArtResult> {
  if (!deps.generator) {
    throw unavailable('Cover art generation is not configured on this environment.', 'cover_art_disabled');
  }
  const prompt = checkedPrompt(input.prompt, fields.prompt);
  await assertDraftOpen(deps, input, fields);
  const base = await prepareBaseImage(
    deps,
    input.accountId,
    { fileUrl: input.baseFileUrl, base64: input.baseImageBase64 },
    fields,
  );
  const { remaining } = await consumeCoverArtAllowance(deps.em, deps.rateLimits, input.accountId);
  const image = await deps.generator.generate({ prompt, base });
  const file = await storeGenerated(deps, input.accountId, image.bytes, input.fileName);
  const fileUrl = fileUrlFor('cover-art', input.accountId, file.name);
  if (input.releaseId || input.conversationId) {
    await saveDraft(deps.em, input.accountId, {
      release: { cover_art_file_url: fileUrl },
      releaseId: input.releaseId ?? null,
      conversationId: input.conversationId ?? null,
      mode: 'delta',
    });
  }
  return {
    fileUrl,
    bucket: 'cover-art',
    key: `${input.accountId}/${file.name}`,
    fileName: file.name,
    prompt,
    model: image.model,
    modelVariant: image.modelVariant,
    imageSize: IMAGE_SIZE,
    aspectRatio: ASPECT_RATIO,
    edited: base !== null,
    rateLimit: { remaining },
    imageBase64: input.returnBase64
      ? (await buffer(await deps.storage.get(file.storageKey))).toString('base64')
      : null,
    file,
  };
}

/** The draft that is to take the cover must still be one, checked before anything is generated. */
async function assertDraftOpen(deps: CoverArtDeps, input: CoverArtInput, fields: CoverArtFieldNames) {
  const release = input.releaseId
    ? await findOwnedRelease(deps.em, input.accountId, input.releaseId, { field: fields.releaseId })
    : input.conversationId
      ? await deps.em.findOne(Release, { account: input.accountId, conversationId: input.conversationId })
      : null;
  if (release && release.status !== 'draft') {
    throw conflict(
      'This release has been submitted; its draft cover can no longer change.',
      'release_already_submitted',
    );
  }
}

function checkedPrompt(prompt: string, field: string): string {
  const length = [...prompt].length;
  if (prompt.trim().length === 0 || length > COVER_ART_PROMPT.max) {
    const problem = length > COVER_ART_PROMPT.max ? `${length} characters` : 'empty';
    throw invalidRequest(
      `${field} must be ${COVER_ART_PROMPT.min} to ${COVER_ART_PROMPT.max} characters (got ${problem}).`,
      [{ path: field, message: problem }],
      'invalid_prompt',
    );
  }
  return prompt;
}

/** Through the upload pipeline: sniffed, normalised to a 3000×3000 PNG, stored and recorded. */
async function storeGenerated(
  deps: CoverArtDeps,
  accountId: string,
  bytes: Buffer,
  fileName: string | null | undefined,
): Promise<StoredFile> {
  const sourcePath = await deps.scratch.newPath('generated');
  try {
    await writeFile(sourcePath, bytes);
    return await ingestFile(deps, {
      accountId,
      type: 'coverArt',
      fileName: fileName || `mcp-cover-${deps.now().getTime()}.png`,
      sourcePath,
      origin: 'generated',
      fieldPath: 'image',
    });
  } catch (error) {
    // The provider's image, not the caller's input, failed to decode: the provider's failure.
    if (error instanceof AppError && error.type === 'validation_error') {
      throw new AppError(
        'upstream_error',
        'image_unreadable',
        'The image service returned an image that could not be read; retry with the same prompt.',
        { cause: error },
      );
    }
    throw error;
  } finally {
    await rm(sourcePath, { force: true });
  }
}
