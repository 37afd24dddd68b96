import {
  REST_DISTRIBUTE_FIELDS,
  REST_DISTRIBUTION_STORES_FIELDS,
  REST_TAKEDOWN_FIELDS,
  REST_UGC_POLICIES_FIELDS,
} from '../../selections.ts';
import { bodyField, pathParam, type RestRoute, type VariableSource } from '../route.ts';

const STORE_ID = {
  oneOf: [{ type: 'integer' }, { type: 'string' }],
  description: 'A storeId from GET /v1/distribution-stores, or one of its aliases.',
};

const body = (name: string, description: string, schema: Record<string, unknown>): VariableSource => ({
  ...bodyField(name),
  description,
  schema,
});

/**
 * Store operations on a release. Bodies use `store_ids` / `policies`; responses are snake_case like the
 * other release responses, except `skippedStoreIds`, which keeps the spelling the spec gives it.
 */
export const storeOperationRoutes: RestRoute[] = [
  {
    operationId: 'distributeRelease',
    method: 'POST',
    path: '/releases/:id/distribute',
    summary:
      'Queue a live release for more stores (body store_ids) without re-uploading; skipped stores come ' +
      'back in skippedStoreIds with a reason (403 unknown store, 409 not yet submitted)',
    tag: 'Delivery',
    auth: 'bearer',
    document: `mutation DistributeRelease($id: ID!, $storeIds: JSON!) {
      result: distributeReleaseWire(releaseId: $id, storeIds: $storeIds) { ${REST_DISTRIBUTE_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      storeIds: body('store_ids', 'The stores to add (at least one).', {
        type: 'array',
        items: STORE_ID,
        minItems: 1,
      }),
    },
    select: 'result',
  },
  {
    operationId: 'takedownRelease',
    method: 'POST',
    path: '/releases/:id/takedown',
    summary:
      'Request a takedown (body store_ids: array, or "all"; empty body = all stores); irreversible, stores ' +
      'confirm over days (409 not yet submitted)',
    tag: 'Delivery',
    auth: 'bearer',
    document: `mutation TakedownRelease($id: ID!, $storeIds: JSON) {
      result: takedownReleaseWire(releaseId: $id, storeIds: $storeIds) { ${REST_TAKEDOWN_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      storeIds: body('store_ids', 'The stores to take the release down from, or "all"; omitted: all.', {
        oneOf: [
          { type: 'array', items: STORE_ID, minItems: 1 },
          { type: 'string', enum: ['all'] },
        ],
      }),
    },
    select: 'result',
  },
  {
    operationId: 'setReleaseStores',
    method: 'PUT',
    path: '/releases/:id/stores',
    summary:
      'Target stores for the next submission or redistribution (body store_ids: array, or null to reset ' +
      'to all supported stores); delivers nothing now',
    tag: 'Delivery',
    auth: 'bearer',
    document: `mutation SetReleaseStores($id: ID!, $storeIds: JSON) {
      result: setDistributionStoresWire(releaseId: $id, storeIds: $storeIds) {
        ${REST_DISTRIBUTION_STORES_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      storeIds: body('store_ids', 'The target stores, or null for all supported stores (required).', {
        oneOf: [{ type: 'array', items: STORE_ID, minItems: 1 }, { type: 'null' }],
      }),
    },
    select: 'result',
  },
  {
    operationId: 'getReleaseUgcPolicies',
    method: 'GET',
    path: '/releases/:id/ugc-policies',
    summary:
      'Per-platform user-generated-content policy (defaults filled in) and the selectable codes of ' +
      'stores 307, 310, 319',
    tag: 'Delivery',
    auth: 'bearer',
    document: `query GetReleaseUgcPolicies($id: ID!) {
      result: ugcPolicies(releaseId: $id) { ${REST_UGC_POLICIES_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'result',
  },
  {
    operationId: 'setReleaseUgcPolicies',
    method: 'PUT',
    path: '/releases/:id/ugc-policies',
    summary:
      'Choose user-generated-content policies (body policies: store id or alias → code, null resets); ' +
      'applies at the next delivery to those stores',
    tag: 'Delivery',
    auth: 'bearer',
    document: `mutation SetReleaseUgcPolicies($id: ID!, $policies: JSON!) {
      result: setUgcPoliciesWire(releaseId: $id, policies: $policies) { ${REST_UGC_POLICIES_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      policies: body(
        'policies',
        'Store id or alias (307, 310, 319) → policy code; null resets the default.',
        {
          type: 'object',
          additionalProperties: { type: ['string', 'null'] },
        },
      ),
    },
    select: 'result',
  },
];
