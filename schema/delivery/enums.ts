import { JOB_STATES } from '../../src/domains/delivery/release-job.entity.ts';
import { enumFromList } from '../enums.ts';

export const JobStateEnum = enumFromList('JobState', JOB_STATES, {
  description: "The state of a release's processing job.",
});
