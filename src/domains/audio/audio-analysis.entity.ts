import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { StoredFile } from '../uploads/stored-file.entity.ts';

export const ANALYSIS_KINDS = ['ai_detection', 'registry_match'] as const;

/**
 * A cached analysis of a stored audio file (AI detection, registry match). Billing reads the AI verdict
 * from here; the detectors that write it sit behind provider adapters.
 */
export const AudioAnalysis = defineEntity({
  name: 'AudioAnalysis',
  tableName: 'audio_analyses',
  properties: {
    id: columns.id(),
    file: () => p.manyToOne(StoredFile).deleteRule('cascade'),
    kind: p.enum(ANALYSIS_KINDS),
    result: p.json<Record<string, unknown>>(),
    createdAt: columns.createdAt(),
  },
  uniques: [{ properties: ['file', 'kind'] }],
});

export type AudioAnalysis = InferEntity<typeof AudioAnalysis>;
