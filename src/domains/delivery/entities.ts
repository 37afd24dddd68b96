import { Delivery } from './delivery.entity.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { SandboxControl } from './sandbox-control.entity.ts';

/** The delivery domain's entities, for `src/entities.ts`. */
export const deliveryEntities = [Delivery, ReleaseJob, SandboxControl];
