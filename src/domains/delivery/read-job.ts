import type { EntityManager } from '@mikro-orm/postgresql';
import type { Release } from '../releases/index.ts';
import { type JobError, type JobState, type JobStep, ReleaseJob } from './release-job.entity.ts';

export interface ReleaseJobView {
  jobId: string;
  releaseId: string;
  state: JobState;
  steps: JobStep[];
  errors: JobError[];
  createdAt: Date;
  updatedAt: Date;
}

/** GET /releases/{id}/job: null when the release has no job yet (not submitted). */
export async function readReleaseJob(em: EntityManager, release: Release): Promise<ReleaseJobView | null> {
  const job = await em.findOne(ReleaseJob, { release: release.id }, { refresh: true });
  if (!job) return null;
  return {
    jobId: job.id,
    releaseId: release.id,
    state: job.state,
    steps: job.steps,
    errors: job.errors,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
