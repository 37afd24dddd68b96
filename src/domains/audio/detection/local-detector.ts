import { decodePcm } from '../pcm.ts';
import type { AiDetector, AiVerdict } from './port.ts';
import { upsamplingPeaks } from './spectral-peaks.ts';

/** The analysis rate, and the most audio looked at (peaks are stationary: minutes add nothing). */
const SAMPLE_RATE = 44_100;
const MAX_SECONDS = 240;
/** Mean peak height (dB) at which a file is called AI; see docs/audio.md for the measurements. */
export const AI_THRESHOLD_DB = 6;
/** How sharply the score moves from 0 to 1 around the threshold (dB per logistic unit). */
const SCORE_SCALE_DB = 1.5;

export function scoreFor(prominenceDb: number): number {
  return 1 / (1 + Math.exp(-(prominenceDb - AI_THRESHOLD_DB) / SCORE_SCALE_DB));
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * `spectral-peaks-v1`: decodes with the bundled ffmpeg, averages the spectrum with an FFT and measures
 * the comb of peaks a strided upsampling decoder leaves at k·rate/stride (docs/audio.md).
 */
export function createLocalAiDetector(): AiDetector {
  return {
    provider: 'tributary',
    model: 'spectral-peaks-v1',
    async analyse(audio, options = {}): Promise<AiVerdict> {
      const pcm = await decodePcm(await audio.open(), {
        sampleRate: SAMPLE_RATE,
        maxSeconds: MAX_SECONDS,
        format: 'f32le',
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const features = upsamplingPeaks(pcm.samples as Float32Array, pcm.sampleRate);
      const aiScore = round(scoreFor(features.prominenceDb));
      const containsAi = aiScore >= 0.5;
      const rateKhz = features.decoderRate / 1000;
      return {
        aiScore,
        containsAi,
        predictedModel: containsAi ? `upsampling-decoder-x${features.stride}@${rateKhz}kHz` : null,
        predictedModelScore: containsAi ? aiScore : null,
        message: `Upsampling peaks ${features.prominenceDb.toFixed(1)} dB above the spectral floor (AI at ≥ ${AI_THRESHOLD_DB} dB).`,
      };
    },
  };
}
