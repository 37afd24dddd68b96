import type { RestRoute } from '../route.ts';
import { accountRoutes } from './account.ts';
import { audioRoutes } from './audio.ts';
import { catalogRoutes } from './catalog.ts';
import { deliveryRoutes } from './delivery.ts';
import { fileRoutes } from './files.ts';
import { platformRoutes } from './platform.ts';
import { releaseRoutes } from './releases.ts';
import { storeOperationRoutes } from './store-operations.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every REST endpoint under /v1, one row each. */
export const restRoutes: RestRoute[] = [
  ...platformRoutes,
  ...catalogRoutes,
  ...accountRoutes,
  ...fileRoutes,
  ...audioRoutes,
  ...releaseRoutes,
  ...deliveryRoutes,
  ...storeOperationRoutes,
  ...webhookRoutes,
];
