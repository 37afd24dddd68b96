import { ingestQueue } from './domains/analytics/index.ts';
import { autoReloadQueue } from './domains/credits/index.ts';
import { advanceQueue, workQueue } from './domains/delivery/index.ts';
import { challengeQueue } from './domains/verified-email/index.ts';
import type { QueueDefinition } from './platform/jobs/index.ts';

/** Every job queue the app sends to; a domain adds its queues here (created with the database). */
export const queues: readonly QueueDefinition[] = [
  advanceQueue,
  workQueue,
  ingestQueue,
  autoReloadQueue,
  challengeQueue,
];
