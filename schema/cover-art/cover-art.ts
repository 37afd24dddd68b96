import {
  CAMEL_FIELDS,
  COVER_ART_FILE_NAME_MAX,
  COVER_ART_PROMPT,
  COVER_ART_RATE,
  type CoverArtResult,
  generateCoverArt,
  SNAKE_FIELDS,
} from '../../src/domains/cover-art/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { uploadDeps } from '../uploads/deps.ts';
import { FileRef } from '../uploads/file.ts';

const RateLimitRef = builder.objectRef<CoverArtResult['rateLimit']>('CoverArtRateLimit').implement({
  description: `The caller's cover-art allowance: ${COVER_ART_RATE.standard} per ${COVER_ART_RATE.windowSeconds / 60} minutes (${COVER_ART_RATE.insider} for insiders), shared by every surface.`,
  fields: (t) => ({
    remaining: t.exposeInt('remaining', { description: 'Generations left in the current window.' }),
  }),
});

const CoverArtResultRef = builder.objectRef<CoverArtResult>('CoverArtResult').implement({
  description: 'Cover art just generated (or edited) and stored as a 3000×3000 PNG in the cover-art store.',
  fields: (t) => ({
    fileUrl: t.exposeString('fileUrl', {
      description: 'The stored file, usable as cover_art_file_url and as the base of a later edit.',
    }),
    bucket: t.exposeString('bucket', { description: 'The store the file is in: always `cover-art`.' }),
    key: t.exposeString('key', { description: 'The object key inside the bucket: `<user_id>/<name>`.' }),
    fileName: t.exposeString('fileName', { description: 'The stored file name.' }),
    prompt: t.exposeString('prompt', { description: 'The prompt as received.' }),
    model: t.exposeString('model', {
      description: 'The model that made the image: `procedural-v1` (offline) or the Gemini model id.',
    }),
    modelVariant: t.exposeString('modelVariant', {
      description:
        'Which variant answered: the procedural composition (`orbits`, `horizon`, `shards`, `ribbons`, with ' +
        '`-edit` for edits), or the model version the image service reports.',
    }),
    imageSize: t.exposeString('imageSize', { description: 'The generated size: always `1K` (1024×1024).' }),
    aspectRatio: t.exposeString('aspectRatio', { description: 'Always `1:1`.' }),
    edited: t.exposeBoolean('edited', { description: 'True whenever a base image was given.' }),
    rateLimit: t.field({ type: RateLimitRef, resolve: (result) => result.rateLimit }),
    imageBase64: t.exposeString('imageBase64', {
      nullable: true,
      description: 'The stored PNG as base64, when returnBase64 was true.',
    }),
    file: t.field({
      type: FileRef,
      description: 'The stored file record.',
      resolve: (result) => result.file,
    }),
  }),
});

const GenerateCoverArtInputRef = builder.inputType('GenerateCoverArtInput', {
  description: 'A prompt, and optionally a base image to edit (one of baseFileUrl or baseImageBase64).',
  fields: (t) => ({
    prompt: t.string({
      required: true,
      description: `What to draw or, when editing, the change to make (${COVER_ART_PROMPT.min} to ${COVER_ART_PROMPT.max} characters).`,
    }),
    baseFileUrl: t.string({
      required: false,
      description: 'A cover-art fileUrl of yours to edit (another account’s file or store answers 403).',
      validate: { maxLength: 2048 },
    }),
    baseImageBase64: t.string({
      required: false,
      description: 'An image to edit, raw base64 or a `data:` URL (about 3 MB of binary at most).',
    }),
    baseImageMimeType: t.string({
      required: false,
      description: 'Informative only: the bytes decide what the base image is.',
      validate: { maxLength: 100 },
    }),
    returnBase64: t.boolean({
      required: false,
      defaultValue: false,
      description: 'Also return the stored PNG as base64 (imageBase64).',
    }),
    fileName: t.string({
      required: false,
      description: 'The name to store under (a suffix is added); default `mcp-cover-<timestamp>.png`.',
      validate: { minLength: 1, maxLength: COVER_ART_FILE_NAME_MAX },
    }),
    releaseId: t.id({ required: false, description: 'A draft release of yours whose cover this becomes.' }),
    conversationId: t.string({
      required: false,
      description: 'The conversation whose draft takes this cover (a new draft when it has none).',
      validate: { minLength: 1, maxLength: 200 },
    }),
  }),
});

builder.mutationField('generateCoverArt', (t) =>
  t.field({
    type: CoverArtResultRef,
    authScopes: MCP,
    description:
      'Generate cover art from a prompt, or edit a base image by it; stored as a 3000×3000 PNG. No credits ' +
      `are charged; ${COVER_ART_RATE.standard} per ${COVER_ART_RATE.windowSeconds / 60} minutes ` +
      `(${COVER_ART_RATE.insider} for insiders), shared with REST and the agent tool. Errors: 400 bad prompt ` +
      'or base image, 403 a base file not yours, 429 over the allowance, 502 the image service failed (retry ' +
      'with the same prompt), 503 generation turned off.',
    args: { input: t.arg({ type: GenerateCoverArtInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      generateCoverArt(
        { ...uploadDeps(context), rateLimits: context.app.rateLimits, generator: context.app.imageGenerator },
        {
          accountId: requirePrincipal(context).accountId,
          prompt: input.prompt,
          baseFileUrl: input.baseFileUrl,
          baseImageBase64: input.baseImageBase64,
          baseImageMimeType: input.baseImageMimeType,
          returnBase64: input.returnBase64,
          fileName: input.fileName,
          releaseId: input.releaseId,
          conversationId: input.conversationId,
        },
        context.channel === 'rest' ? SNAKE_FIELDS : CAMEL_FIELDS,
      ),
  }),
);
