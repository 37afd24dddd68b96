import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Release } from '../releases/release.entity.ts';

export const JOB_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_STEP_STATUSES = ['completed', 'failed', 'skipped'] as const;

export interface JobStep {
  name: string;
  status: (typeof JOB_STEP_STATUSES)[number];
  /** ISO 8601. */
  at: string;
  detail: string;
  storeId?: number;
}

export interface JobError {
  at: string;
  code: string;
  message: string;
  storeId?: number;
}

/** The background processing job of a submitted release (GET /releases/{id}/job): one per release. */
export const ReleaseJob = defineEntity({
  name: 'ReleaseJob',
  tableName: 'release_jobs',
  properties: {
    id: columns.id(),
    release: () => p.manyToOne(Release).deleteRule('cascade').unique(),
    state: p.enum(JOB_STATES).default('queued'),
    steps: p.json<JobStep[]>(),
    errors: p.json<JobError[]>(),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
  },
});

export type ReleaseJob = InferEntity<typeof ReleaseJob>;
