import type { Readable } from 'node:stream';

/** The audio an analyser looks at: its bytes (opened on demand) and what is known about them. */
export interface AudioSource {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  open(): Promise<Readable>;
}

/** A detector's verdict on one file. */
export interface AiVerdict {
  aiScore: number;
  containsAi: boolean;
  predictedModel: string | null;
  predictedModelScore: number | null;
  message: string | null;
  /** The detector's own model name when it reports one (the port's `model` otherwise). */
  model?: string;
}

/**
 * The AI-audio detection port: the local spectral analyser by default, a vendor over HTTP when
 * AI_DETECTION_URL is set. `analyse` rejects with an AppError (upstream_error for a vendor failure).
 */
export interface AiDetector {
  readonly provider: string;
  readonly model: string;
  analyse(audio: AudioSource, options?: { signal?: AbortSignal }): Promise<AiVerdict>;
}
