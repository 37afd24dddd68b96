import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { StoredFile } from '../uploads/index.ts';

export const ANALYSIS_KINDS = ['ai_detection', 'registry_match'] as const;

/**
 * A cached analysis of a stored audio file (AI detection, registry match). Billing reads the AI verdict
 * from here; the detectors that write it sit behind provider adapters.
 */
export const AudioAnalysis = defineEntity({
  name: 'AudioAnalysis',
  tableName: 'audio_analyses',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    file: () => p.manyToOne(StoredFile).deleteRule('cascade'),
    kind: p.enum(ANALYSIS_KINDS),
    result: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['file', 'kind'] }],
});

export type AudioAnalysis = InferEntity<typeof AudioAnalysis>;
