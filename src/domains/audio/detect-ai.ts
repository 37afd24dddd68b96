import { AppError } from '../../platform/errors.ts';
import type { StoredFile } from '../uploads/index.ts';
import type { AudioDeps } from './audio-deps.ts';
import { cachedAnalysis, saveAnalysis } from './cached-analysis.ts';
import type { AiDetector, AudioSource } from './detection/port.ts';

/** Files above this size are not analysed (`too_large`): longer than any release track. */
export const MAX_ANALYSED_BYTES = 500 * 1024 * 1024;

export const ANALYSIS_STATUSES = ['ok', 'skipped', 'download_failed', 'too_large'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

export interface AiDetectionResult {
  status: AnalysisStatus;
  containsAi: boolean;
  aiScore: number;
  predictedModel: string | null;
  predictedModelScore: number | null;
  provider: string;
  model: string;
  message: string | null;
  cached: boolean;
}

export interface AnalysisRequest {
  fileUrl: string;
  fileName?: string | null | undefined;
  releaseId?: string | null | undefined;
  conversationId?: string | null | undefined;
  trackIndex?: number | null | undefined;
}

export function audioSourceOf(deps: Pick<AudioDeps, 'storage'>, file: StoredFile): AudioSource {
  return {
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    sha256: file.sha256,
    open: () => deps.storage.get(file.storageKey),
  };
}

const notAnalysed = (detector: AiDetector, status: AnalysisStatus, message: string): AiDetectionResult => ({
  status,
  containsAi: false,
  aiScore: 0,
  predictedModel: null,
  predictedModelScore: null,
  provider: detector.provider,
  model: detector.model,
  message,
  cached: false,
});

/**
 * Runs the detector on a stored file (or reads its cached result for these bytes). `known` is the
 * file's own cached result when the caller has read it already (`ownAnalysesOf`; null: it has none).
 */
export async function aiDetectionOf(
  deps: AudioDeps,
  file: StoredFile,
  known?: Record<string, unknown> | null,
): Promise<AiDetectionResult> {
  const cached = await cachedAnalysis(deps.em, file, 'ai_detection', known);
  if (cached) return { ...(cached as unknown as AiDetectionResult), cached: true };
  const detector = deps.aiDetector;
  if (file.size > MAX_ANALYSED_BYTES) {
    return notAnalysed(
      detector,
      'too_large',
      `Files above ${MAX_ANALYSED_BYTES / 1024 / 1024} MB are not analysed.`,
    );
  }
  let result: AiDetectionResult;
  try {
    const verdict = await detector.analyse(audioSourceOf(deps, file));
    result = {
      status: 'ok',
      containsAi: verdict.containsAi,
      aiScore: verdict.aiScore,
      predictedModel: verdict.predictedModel,
      predictedModelScore: verdict.predictedModelScore,
      provider: detector.provider,
      model: verdict.model ?? detector.model,
      message: verdict.message,
      cached: false,
    };
  } catch (error) {
    if (error instanceof AppError && error.type === 'upstream_error') throw error;
    if (error instanceof AppError && error.type === 'not_found_error') {
      return notAnalysed(detector, 'download_failed', 'The stored audio could not be read.');
    }
    // The bytes are stored but are no audio the decoder reads: say so, and do not guess.
    result = notAnalysed(detector, 'skipped', 'The audio could not be decoded, so it was not analysed.');
  }
  await saveAnalysis(deps.em, file, 'ai_detection', { ...result, cached: undefined });
  return result;
}
