import { JOB_STATES, JOB_STEP_STATUSES } from '../../src/domains/delivery/index.ts';
import { enumFromList } from '../enums.ts';

export const JobStateEnum = enumFromList('JobState', JOB_STATES, {
  description: "The state of a release's processing job.",
});

export const JobStepStatusEnum = enumFromList('JobStepStatus', JOB_STEP_STATUSES, {
  description: 'How one step of a release job ended.',
});
