import {
  type DistributeResult,
  distributeToStores,
  getUgcPolicies,
  type SkippedStoreView,
  setTargetStores,
  setUgcPolicies,
  type TakedownStoresResult,
  type TargetStoresResult,
  takedownStores,
  type UgcPoliciesResult,
  type UgcPolicyView,
} from '../../src/domains/delivery/operations/index.ts';
import { builder, MCP } from '../builder.ts';
import { UgcPolicyCodeRef } from '../catalog/stores.ts';
import { requirePrincipal } from '../context.ts';

export const SkippedStoreRef = builder.objectRef<SkippedStoreView>('SkippedStore').implement({
  description: 'A store an operation did not act on.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    storeName: t.exposeString('storeName'),
    reason: t.exposeString('reason', {
      description:
        '`partner_approval_required`, `ugc_policy_unresolvable`, `already_delivered`, `not_delivered`, ' +
        '`takedown_pending` or `already_taken_down`.',
    }),
  }),
});

const DistributeResultRef = builder.objectRef<DistributeResult>('DistributeResult').implement({
  description: 'What a request for more stores queued, and what it skipped.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId'),
    queuedStoreIds: t.exposeIntList('queuedStoreIds', { description: 'Stores queued for delivery now.' }),
    skippedStoreIds: t.field({
      type: [SkippedStoreRef],
      description: 'Stores that could not be delivered, each with a reason.',
      resolve: (r) => r.skippedStoreIds,
    }),
    note: t.exposeString('note'),
  }),
});

const TakedownResultRef = builder.objectRef<TakedownStoresResult>('TakedownResult').implement({
  description: 'What a takedown request asked of the stores, and what it skipped.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId'),
    requestedStoreIds: t.exposeIntList('requestedStoreIds', {
      description: 'Stores asked to remove the release; each confirms a step later.',
    }),
    skippedStoreIds: t.field({
      type: [SkippedStoreRef],
      description: 'Named stores without the release (or with a takedown already pending or done).',
      resolve: (r) => r.skippedStoreIds,
    }),
    note: t.exposeString('note'),
  }),
});

const TargetStoresResultRef = builder.objectRef<TargetStoresResult>('DistributionStoresResult').implement({
  description: 'The stores a release now targets.',
  fields: (t) => ({
    ok: t.boolean({ resolve: () => true }),
    releaseId: t.exposeID('releaseId'),
    distributionStoreIds: t.field({
      type: ['Int'],
      nullable: true,
      description: 'null: all supported stores (the default).',
      resolve: (r) => r.distributionStoreIds,
    }),
    note: t.exposeString('note'),
  }),
});

const UgcPolicyRef = builder.objectRef<UgcPolicyView>('ReleaseUgcPolicy').implement({
  description: "A user-generated-content store's policy for one release.",
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    storeName: t.exposeString('storeName'),
    aliases: t.exposeStringList('aliases'),
    policy: t.exposeString('policy', { description: 'The code applied at the next delivery to the store.' }),
    isDefault: t.exposeBoolean('isDefault', {
      description: 'True when no choice is stored for this store, so its defaultCode applies.',
    }),
    selectable: t.field({ type: [UgcPolicyCodeRef], resolve: (p) => p.selectable }),
    defaultCode: t.exposeString('defaultCode'),
  }),
});

const UgcPoliciesRef = builder.objectRef<UgcPoliciesResult>('ReleaseUgcPolicies').implement({
  description: 'The UGC policies of one release, store by store.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId'),
    policies: t.field({ type: [UgcPolicyRef], resolve: (r) => r.policies }),
  }),
});

builder.mutationField('distributeRelease', (t) =>
  t.field({
    type: DistributeResultRef,
    authScopes: MCP,
    description:
      'Queue a submitted release for more stores (ids or aliases) without re-uploading. Stores that cannot ' +
      'take it come back in skippedStoreIds with a reason. 409 before submission; 403 for unknown stores.',
    args: {
      releaseId: t.arg.id({ required: true }),
      storeIds: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, context) =>
      distributeToStores(
        context.em,
        requirePrincipal(context).accountId,
        args.releaseId,
        args.storeIds,
        context.app.distributor,
      ),
  }),
);

builder.mutationField('takedownRelease', (t) =>
  t.field({
    type: TakedownResultRef,
    authScopes: MCP,
    description:
      'Ask stores to remove a submitted release: storeIds an array of ids or aliases, or "all" (absent: ' +
      'all). Irreversible; stores confirm over the next delivery steps. 409 before submission.',
    args: {
      releaseId: t.arg.id({ required: true }),
      storeIds: t.arg({ type: 'JSON', required: false }),
    },
    resolve: (_root, args, context) =>
      takedownStores(
        context.em,
        requirePrincipal(context).accountId,
        args.releaseId,
        args.storeIds,
        context.app.distributor,
      ),
  }),
);

builder.mutationField('setDistributionStores', (t) =>
  t.field({
    type: TargetStoresResultRef,
    authScopes: MCP,
    description:
      'The stores the next submission or redistribution targets (ids or aliases); null resets to all ' +
      'supported stores. Delivers nothing now. Unknown entries are ignored and named in note.',
    args: {
      releaseId: t.arg.id({ required: true }),
      storeIds: t.arg({ type: 'JSON', required: false }),
    },
    resolve: (_root, args, context) =>
      setTargetStores(context.em, requirePrincipal(context).accountId, args.releaseId, args.storeIds),
  }),
);

builder.mutationField('setUgcPolicies', (t) =>
  t.field({
    type: UgcPoliciesRef,
    authScopes: MCP,
    description:
      'Choose user-generated-content policies: an object mapping a store id or alias (307, 310, 319) to a ' +
      'policy code; null resets the store to its default. Applies at the next delivery to those stores.',
    args: {
      releaseId: t.arg.id({ required: true }),
      policies: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, context) =>
      setUgcPolicies(context.em, requirePrincipal(context).accountId, args.releaseId, args.policies),
  }),
);

builder.queryField('ugcPolicies', (t) =>
  t.field({
    type: UgcPoliciesRef,
    authScopes: MCP,
    description:
      'The user-generated-content policy of each UGC store (307, 310, 319) for one of your releases, ' +
      'defaults filled in, with the codes each store offers.',
    args: { releaseId: t.arg.id({ required: true }) },
    resolve: (_root, args, context) =>
      getUgcPolicies(context.em, requirePrincipal(context).accountId, args.releaseId),
  }),
);
