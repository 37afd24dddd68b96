export { type AcrMatch, type AcrResult, acrCheck } from './acr-check.ts';
export type { AudioDeps } from './audio-deps.ts';
export { ownAnalysesOf } from './cached-analysis.ts';
export {
  type AiDetectionResult,
  ANALYSIS_STATUSES,
  type AnalysisRequest,
  aiDetectionOf,
} from './detect-ai.ts';
export { createHttpAiDetector } from './detection/http-detector.ts';
export { createLocalAiDetector } from './detection/local-detector.ts';
export type { AiDetector } from './detection/port.ts';
export { fingerprintAudio } from './registry/chromaprint.ts';
export { importCatalogue } from './registry/import-catalogue.ts';
export { indexRecording } from './registry/registry.ts';
export { type DspLink, RegistryRecording } from './registry/registry-recording.entity.ts';
