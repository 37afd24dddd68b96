import { z } from 'zod';
import {
  DISTRIBUTE_FIELDS,
  DISTRIBUTION_STORES_FIELDS,
  TAKEDOWN_FIELDS,
  UGC_POLICIES_FIELDS,
} from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolAnnotations, type ToolRow } from '../tool.ts';

const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const DESTRUCTIVE: ToolAnnotations = { ...WRITES, destructiveHint: true };

const releaseId = z.string().min(1).describe('A release id (UUID) of yours.');
const storeId = z
  .union([z.number().int(), z.string().min(1).max(100)])
  .describe('A storeId from get_distribution_stores, or one of its aliases.');

export const storeOperationTools: ToolRow[] = [
  defineTool({
    name: 'set_distribution_stores',
    title: 'Set distribution stores',
    description:
      'Choose the stores a release targets at its next submission or redistribution (storeIds from ' +
      'get_distribution_stores; null resets to all supported stores). Delivers nothing now: use ' +
      'add_release_stores to send a live release to more stores. Returns ok, releaseId, ' +
      'distributionStoreIds (null = all) and note (which unknown ids were ignored).',
    annotations: WRITES,
    args: z.object({ releaseId, storeIds: z.array(storeId).nullable() }),
    document: `mutation AgentSetDistributionStores($id: ID!, $storeIds: JSON) {
      result: setDistributionStoresWire(releaseId: $id, storeIds: $storeIds) { ${DISTRIBUTION_STORES_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId, storeIds: a.storeIds }),
    select: 'result',
    aliases: ['set_release_stores', 'select_stores'],
  }),
  defineTool({
    name: 'add_release_stores',
    title: 'Distribute a live release to more stores',
    description:
      'Queue a submitted release for more stores now, without re-uploading ' +
      '(POST /v1/releases/{id}/distribute). ' +
      'Returns queuedStoreIds and skippedStoreIds [{storeId, storeName, reason}] (e.g. ' +
      'partner_approval_required, already_delivered). Unknown stores: 403; not yet submitted: 409. The ' +
      'release UGC policies (get_ugc_policies) apply to the stores queued.',
    annotations: { ...WRITES, idempotentHint: false },
    args: z.object({ releaseId, storeIds: z.array(storeId).min(1) }),
    document: `mutation AgentDistributeRelease($id: ID!, $storeIds: JSON!) {
      result: distributeReleaseWire(releaseId: $id, storeIds: $storeIds) { ${DISTRIBUTE_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId, storeIds: a.storeIds }),
    select: 'result',
    aliases: ['distribute_to_stores', 'add_stores'],
  }),
  defineTool({
    name: 'takedown_release',
    title: 'Take a release down',
    description:
      'Ask stores to remove a submitted release: storeIds (ids or aliases), or "all" / omitted for every ' +
      'store. IRREVERSIBLE: a takedown cannot be cancelled; stores confirm over the next delivery steps. ' +
      'Returns requestedStoreIds, skippedStoreIds (stores without the release) and note. ' +
      '409 before submission.',
    annotations: { ...DESTRUCTIVE, idempotentHint: false },
    args: z.object({ releaseId, storeIds: z.union([z.array(storeId).min(1), z.literal('all')]).optional() }),
    document: `mutation AgentTakedownRelease($id: ID!, $storeIds: JSON) {
      result: takedownReleaseWire(releaseId: $id, storeIds: $storeIds) { ${TAKEDOWN_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId, ...(a.storeIds === undefined ? {} : { storeIds: a.storeIds }) }),
    select: 'result',
    aliases: ['takedown', 'take_down_release'],
  }),
  defineTool({
    name: 'get_ugc_policies',
    title: 'Get UGC policies',
    description:
      'The user-generated-content match policy of stores 307, 310 and 319 for a release ' +
      '(defaults filled in, ' +
      'isDefault true when nothing was chosen) with the selectable codes of each store.',
    annotations: READ_ONLY,
    args: z.object({ releaseId }),
    document: `query AgentUgcPolicies($id: ID!) {
      result: ugcPolicies(releaseId: $id) { ${UGC_POLICIES_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId }),
    select: 'result',
    aliases: ['ugc_policies'],
  }),
  defineTool({
    name: 'set_ugc_policies',
    title: 'Set UGC policies',
    description:
      'Choose user-generated-content policies: policies maps a store id or alias (307, 310, 319) to one of ' +
      'its codes from get_ugc_policies; null resets that store to its default. ' +
      'Applies at the next delivery ' +
      'to those stores (submission, add_release_stores).',
    annotations: WRITES,
    args: z.object({ releaseId, policies: z.record(z.string(), z.string().nullable()) }),
    document: `mutation AgentSetUgcPolicies($id: ID!, $policies: JSON!) {
      result: setUgcPoliciesWire(releaseId: $id, policies: $policies) { ${UGC_POLICIES_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId, policies: a.policies }),
    select: 'result',
  }),
];
