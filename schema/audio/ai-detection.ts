import { type AiDetectionResult, ANALYSIS_STATUSES } from '../../src/domains/audio/index.ts';
import { detectAudioAi } from '../../src/domains/releases/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { audioFileArgs } from './args.ts';
import { audioDeps } from './deps.ts';

export const AnalysisStatusEnum = enumFromList('AudioAnalysisStatus', ANALYSIS_STATUSES, {
  description: 'Whether the analyser looked at the audio.',
  valueDescriptions: {
    ok: 'The analyser returned a result.',
    skipped: 'The file was not analysed (its audio could not be decoded).',
    download_failed: 'The stored audio could not be read.',
    too_large: 'The file is larger than the analysers take.',
  },
});

const AiDetectionRef = builder.objectRef<AiDetectionResult>('AiDetectionResult').implement({
  description: 'Whether a recording is AI-generated, as billing sees it (docs/audio.md).',
  fields: (t) => ({
    status: t.field({
      type: AnalysisStatusEnum,
      description: 'Whether the detector looked.',
      resolve: (r) => r.status,
    }),
    containsAi: t.exposeBoolean('containsAi', {
      description: 'The verdict: billed as an AI track when true.',
    }),
    aiScore: t.exposeFloat('aiScore', {
      description: 'How AI-like the audio is, 0..1; AI at 0.5 and above.',
    }),
    predictedModel: t.exposeString('predictedModel', {
      nullable: true,
      description: 'The generator family the evidence points to, when the detector can tell.',
    }),
    predictedModelScore: t.exposeFloat('predictedModelScore', {
      nullable: true,
      description: 'Confidence in predictedModel, 0..1.',
    }),
    provider: t.exposeString('provider', {
      description: 'Who ran the detection (`tributary` for the local one).',
    }),
    model: t.exposeString('model', {
      description: 'The detector and its version, e.g. `spectral-peaks-v1`.',
    }),
    message: t.exposeString('message', {
      nullable: true,
      description: 'What the detector measured, in words.',
    }),
    cached: t.exposeBoolean('cached', {
      description: 'True when the result for these bytes was already known.',
    }),
  }),
});

builder.mutationField('detectAudioAi', (t) =>
  t.field({
    type: AiDetectionRef,
    authScopes: MCP,
    description:
      'Detect AI-generated audio in one of your audio files: the classifier billing uses. With releaseId and ' +
      'trackIndex (0-based), a detected AI track of that draft is marked AI. Results are cached per file.',
    args: audioFileArgs,
    resolve: (_root, args, context) =>
      detectAudioAi(audioDeps(context), requirePrincipal(context).accountId, {
        fileUrl: args.fileUrl,
        fileName: args.fileName,
        releaseId: args.releaseId === null || args.releaseId === undefined ? null : String(args.releaseId),
        conversationId: args.conversationId,
        trackIndex: args.trackIndex,
      }),
  }),
);
