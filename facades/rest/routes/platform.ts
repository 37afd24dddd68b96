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
        pricing {
          currency
          perCredit { usd cents }
          perSong { human ai aiSurcharge }
          tokenOffset { credits costUsd optional }
          bundles { packageId credits priceUsd perCreditUsd discountPercent savingsUsd tag }
          autoReload { available requiresSavedCard mcp { read configure } }
          creditsNeverExpire
        }
      }
    `,
    select: 'pricing',
  },
];
