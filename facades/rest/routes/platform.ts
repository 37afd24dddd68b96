import { PRICING_FIELDS } from '../../selections.ts';
import type { RestRoute } from '../route.ts';

export const platformRoutes: RestRoute[] = [
  {
    operationId: 'getStatus',
    method: 'GET',
    path: '/status',
    summary: 'Liveness probe: 200 while the service is serving',
    tag: 'Discovery and metadata',
    auth: 'public',
    document: /* GraphQL */ `
      query GetStatus {
        serviceStatus {
          status
          version
          startedAt
          uptimeSeconds
          database
          redis
          time
        }
      }
    `,
    select: 'serviceStatus',
  },
  {
    operationId: 'getPricing',
    method: 'GET',
    path: '/pricing',
    summary: 'Credit pricing, per-song rates and bundles',
    tag: 'Discovery and metadata',
    auth: 'public',
    document: /* GraphQL */ `
      query GetPricing {
        pricing { ${PRICING_FIELDS} }
      }
    `,
    select: 'pricing',
  },
];
