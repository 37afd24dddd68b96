import type { AppConfig } from '../../platform/config.ts';
import { createGeminiGenerator } from './gemini-generator.ts';
import type { ImageGenerator } from './image-generator.ts';
import { createProceduralGenerator } from './procedural-generator.ts';

export type CoverArtSettings = Pick<
  AppConfig,
  | 'COVER_ART_PROVIDER'
  | 'GEMINI_API_KEY'
  | 'GEMINI_IMAGE_MODEL'
  | 'GEMINI_BASE_URL'
  | 'GEMINI_TIMEOUT_SECONDS'
>;

/** The adapter COVER_ART_PROVIDER names; null when the deployment turned generation off (`none`). */
export function imageGeneratorFor(config: CoverArtSettings): ImageGenerator | null {
  switch (config.COVER_ART_PROVIDER) {
    case 'procedural':
      return createProceduralGenerator();
    case 'gemini':
      if (!config.GEMINI_API_KEY)
        throw new Error('GEMINI_API_KEY is required when COVER_ART_PROVIDER=gemini');
      return createGeminiGenerator({
        apiKey: config.GEMINI_API_KEY,
        model: config.GEMINI_IMAGE_MODEL,
        baseUrl: config.GEMINI_BASE_URL,
        timeoutSeconds: config.GEMINI_TIMEOUT_SECONDS,
      });
    case 'none':
      return null;
  }
}
