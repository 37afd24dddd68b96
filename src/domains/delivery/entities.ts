import { Delivery } from './delivery.entity.ts';
import { ReleaseJob } from './release-job.entity.ts';

/** The delivery core's entities, for `src/entities.ts` (each adapter lists its own). */
export const deliveryEntities = [Delivery, ReleaseJob];
