import type { GenerateContentResponse, GoogleGenAI, Part } from '@google/genai';
import { AppError } from '../../platform/errors.ts';
import {
  ASPECT_RATIO,
  type GeneratedImage,
  IMAGE_SIZE,
  type ImageGenerator,
  type ImageRequest,
} from './image-generator.ts';

export interface GeminiSettings {
  apiKey: string;
  model: string;
  /** Another endpoint than Google's (a proxy, or a test's loopback server). */
  baseUrl?: string | undefined;
  timeoutSeconds: number;
}

const RETRY = 'retry with the same prompt';

type Sdk = typeof import('@google/genai');

/** The SDK loads on the first image request (its import costs 130-280 ms that most processes never need). */
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => {
  sdk ??= import('@google/genai');
  return sdk;
};

/**
 * A Gemini image model through @google/genai (`generateContent`, image output, 1:1 at 1K). An edit sends
 * the base image as inline data after the prompt. No retries here: a failure answers 502 at once, and the
 * caller retries with the same prompt (a retry inside would hold the request for minutes).
 */
export function createGeminiGenerator(settings: GeminiSettings): ImageGenerator {
  let client: GoogleGenAI | undefined;
  const clientOf = ({ GoogleGenAI }: Sdk) => {
    client ??= new GoogleGenAI({
      apiKey: settings.apiKey,
      httpOptions: {
        timeout: settings.timeoutSeconds * 1000,
        ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      },
    });
    return client;
  };
  return {
    generate: async (request: ImageRequest): Promise<GeneratedImage> => {
      const parts: Part[] = [{ text: request.prompt }];
      if (request.base)
        parts.push({ inlineData: { mimeType: 'image/png', data: request.base.toString('base64') } });
      const loaded = await loadSdk();
      let response: GenerateContentResponse;
      try {
        response = await clientOf(loaded).models.generateContent({
          model: settings.model,
          contents: [{ role: 'user', parts }],
          config: {
            responseModalities: ['IMAGE'],
            imageConfig: { aspectRatio: ASPECT_RATIO, imageSize: IMAGE_SIZE },
          },
        });
      } catch (error) {
        throw upstreamFailure(error, loaded);
      }
      return imageFrom(response, settings.model);
    },
  };
}

function imageFrom(response: GenerateContentResponse, model: string): GeneratedImage {
  const image = response.candidates
    ?.flatMap((candidate) => candidate.content?.parts ?? [])
    .find((part) => part.inlineData?.data && part.inlineData.mimeType?.startsWith('image/'));
  if (!image?.inlineData?.data) {
    const reason =
      response.promptFeedback?.blockReason ?? response.candidates?.[0]?.finishReason ?? 'no image part';
    throw new AppError(
      'upstream_error',
      'image_not_returned',
      `The image service returned no image (${reason}); ${RETRY}, or rephrase it if it was refused.`,
    );
  }
  return {
    bytes: Buffer.from(image.inlineData.data, 'base64'),
    mimeType: image.inlineData.mimeType ?? 'image/png',
    model,
    modelVariant: response.modelVersion ?? model,
  };
}

function upstreamFailure(error: unknown, { ApiError }: Sdk): AppError {
  if (error instanceof ApiError) {
    return new AppError(
      'upstream_error',
      'image_service_failed',
      `The image service answered HTTP ${error.status}; ${RETRY}.`,
      { cause: error },
    );
  }
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  return new AppError(
    'upstream_error',
    timedOut ? 'image_service_timeout' : 'image_service_unreachable',
    timedOut
      ? `The image service did not answer in time; ${RETRY}.`
      : `The image service could not be reached; ${RETRY}.`,
    { cause: error },
  );
}
