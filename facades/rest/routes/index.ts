import type { RestRoute } from '../route.ts';
import { accountRoutes } from './account.ts';
import { analyticsRoutes } from './analytics.ts';
import { audioRoutes } from './audio.ts';
import { catalogRoutes } from './catalog.ts';
import { coverArtRoutes } from './cover-art.ts';
import { creditRoutes } from './credits.ts';
import { deliveryRoutes } from './delivery.ts';
import { fileRoutes } from './files.ts';
import { fraudRoutes } from './fraud.ts';
import { partnerRoutes, verifiedEmailRoutes } from './partners.ts';
import { platformRoutes } from './platform.ts';
import { releaseRoutes } from './releases.ts';
import { storeOperationRoutes } from './store-operations.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every REST endpoint under /v1, one row each. */
export const restRoutes: RestRoute[] = [
  ...platformRoutes,
  ...catalogRoutes,
  ...accountRoutes,
  ...creditRoutes,
  ...fileRoutes,
  ...coverArtRoutes,
  ...audioRoutes,
  ...releaseRoutes,
  ...deliveryRoutes,
  ...storeOperationRoutes,
  ...webhookRoutes,
  ...analyticsRoutes,
  ...fraudRoutes,
  ...partnerRoutes,
  ...verifiedEmailRoutes,
];
