/**
 * The image-generation port: a prompt (and, to edit, a base image) in, one square image out. Adapters:
 * the offline procedural renderer (the default) and a Gemini image model (COVER_ART_PROVIDER).
 */
export interface ImageRequest {
  /** What to draw or, with a base image, the change to make (1..1500 characters, already checked). */
  prompt: string;
  /** The image to edit: a 1024×1024 PNG prepared from the caller's base (see base-image.ts). */
  base: Buffer | null;
}

export interface GeneratedImage {
  /** The encoded image as the provider made it (PNG, JPEG or WebP); stored through the upload pipeline. */
  bytes: Buffer;
  mimeType: string;
  /** The model that made it, e.g. `procedural-v1` or the Gemini model id. */
  model: string;
  /** Which variant of it answered: the procedural composition, or the version the provider reports. */
  modelVariant: string;
}

export interface ImageGenerator {
  generate(request: ImageRequest): Promise<GeneratedImage>;
}

/** The spec's fixed output: one square image per call, generated at 1K and stored at 3000×3000. */
export const GENERATED_IMAGE_SIZE = 1024;
export const IMAGE_SIZE = '1K';
export const ASPECT_RATIO = '1:1';
