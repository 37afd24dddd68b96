import type { Delivery } from './delivery.entity.ts';
import type { JobError, JobStep, ReleaseJob } from './release-job.entity.ts';

export function addStep(job: Pick<ReleaseJob, 'steps'>, step: Omit<JobStep, 'at'>, now: Date): void {
  job.steps = [...job.steps, { ...step, at: now.toISOString() }];
}

export function addError(job: Pick<ReleaseJob, 'errors'>, error: Omit<JobError, 'at'>, now: Date): void {
  job.errors = [...job.errors, { ...error, at: now.toISOString() }];
}

export function hasStep(job: ReleaseJob, name: string): boolean {
  return job.steps.some((step) => step.name === name);
}

/** Running while any store has a step scheduled; failed when no store took the release; else completed. */
export function settleJob(
  job: Pick<ReleaseJob, 'state'>,
  deliveries: readonly Pick<Delivery, 'nextStepAt' | 'status'>[],
): void {
  if (deliveries.some((d) => d.nextStepAt !== null)) {
    if (job.state !== 'queued' || deliveries.some((d) => d.status !== 'queued')) job.state = 'running';
    return;
  }
  job.state = deliveries.every((d) => d.status === 'rejected' || d.status === 'failed')
    ? 'failed'
    : 'completed';
}
