export { coverArtRule } from './allowance.ts';
export { CAMEL_FIELDS, type CoverArtResult, generateCoverArt, SNAKE_FIELDS } from './generate-cover-art.ts';
export { imageGeneratorFor } from './generators.ts';
export type { ImageGenerator } from './image-generator.ts';
export { COVER_ART_FILE_NAME_MAX, COVER_ART_PROMPT, COVER_ART_RATE } from './limits.ts';
