import { SandboxControl } from './adapters/sandbox/sandbox-control.entity.ts';
import { Delivery } from './delivery.entity.ts';
import { ReleaseJob } from './release-job.entity.ts';

/** The delivery domain's entities, for `src/entities.ts`. */
export const deliveryEntities = [Delivery, ReleaseJob, SandboxControl];
