import {
  type DistributeResult,
  distributeToStores,
  getUgcPolicies,
  SKIP_REASONS,
  type SkippedStoreView,
  type SkipReason,
  setTargetStores,
  setUgcPolicies,
  type TakedownStoresResult,
  type TargetStoresResult,
  takedownStores,
  type UgcPoliciesResult,
  type UgcPolicyView,
} from '../../src/domains/delivery/index.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { UgcPolicyCodeRef, UgcPolicyEnum } from '../catalog/stores.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const SkipReasonEnum = enumFromList('SkipReason', SKIP_REASONS, {
  description: 'Why an operation left a store out.',
  valueDescriptions: {
    partner_approval_required: 'The store delivers only once the account is approved for it.',
    ugc_policy_unresolvable: 'No UGC policy could be chosen for the store.',
    already_delivered: 'The store has the release already.',
    not_delivered: 'The store never had the release.',
    takedown_pending: 'A takedown from the store is under way.',
    already_taken_down: 'The store took the release down already.',
  },
});

export const SkippedStoreRef = builder.objectRef<SkippedStoreView>('SkippedStore').implement({
  description: 'A store an operation did not act on.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    storeName: t.exposeString('storeName'),
    reason: t.field({ type: SkipReasonEnum, resolve: (skipped) => skipped.reason as SkipReason }),
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
    policy: t.expose('policy', {
      type: UgcPolicyEnum,
      description: 'The code applied at the next delivery to the store.',
    }),
    isDefault: t.exposeBoolean('isDefault', {
      description: 'True when no choice is stored for this store, so its defaultCode applies.',
    }),
    selectable: t.field({ type: [UgcPolicyCodeRef], resolve: (p) => p.selectable }),
    defaultCode: t.expose('defaultCode', { type: UgcPolicyEnum }),
  }),
});

const UgcPoliciesRef = builder.objectRef<UgcPoliciesResult>('ReleaseUgcPolicies').implement({
  description: 'The UGC policies of one release, store by store.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId'),
    policies: t.field({ type: [UgcPolicyRef], resolve: (r) => r.policies }),
  }),
});

const storeKeys = (description: string) => ({ description, validate: { maxLength: 100 } });

const DistributeReleaseInputRef = builder.inputType('DistributeReleaseInput', {
  description: 'More stores for a submitted release.',
  fields: (t) => ({
    releaseId: t.id({ required: true }),
    storeIds: t.field({
      type: ['StoreKey'],
      required: true,
      ...storeKeys('The stores to add (at least one).'),
      validate: { minLength: 1, maxLength: 100 },
    }),
  }),
});

const TakedownReleaseInputRef = builder.inputType('TakedownReleaseInput', {
  description: 'The stores to take a submitted release down from.',
  fields: (t) => ({
    releaseId: t.id({ required: true }),
    storeIds: t.field({
      type: ['StoreKey'],
      required: false,
      ...storeKeys('The stores; omitted or null: every store that has the release.'),
    }),
  }),
});

const SetDistributionStoresInputRef = builder.inputType('SetDistributionStoresInput', {
  description: 'The stores the next submission or redistribution of a release targets.',
  fields: (t) => ({
    releaseId: t.id({ required: true }),
    storeIds: t.field({
      type: ['StoreKey'],
      required: false,
      ...storeKeys('The stores; omitted or null: all supported stores (the default).'),
    }),
  }),
});

const UgcPolicyChoiceInputRef = builder.inputType('UgcPolicyChoiceInput', {
  description: 'The policy of one UGC store (307, 310 or 319, or an alias).',
  fields: (t) => ({
    store: t.field({ type: 'StoreKey', required: true }),
    policy: t.field({
      type: UgcPolicyEnum,
      required: false,
      description: "One of the store's codes; null: back to its default.",
    }),
  }),
});

const SetUgcPoliciesInputRef = builder.inputType('SetUgcPoliciesInput', {
  description: 'UGC policy choices for a release, store by store.',
  fields: (t) => ({
    releaseId: t.id({ required: true }),
    policies: t.field({ type: [UgcPolicyChoiceInputRef], required: true, validate: { maxLength: 20 } }),
  }),
});

const DESCRIPTIONS = {
  distribute:
    'Queue a submitted release for more stores (ids or aliases) without re-uploading. Stores that cannot ' +
    'take it come back in skippedStoreIds with a reason. 409 before submission; 403 for unknown stores.',
  takedown:
    'Ask stores to remove a submitted release (absent: all). Irreversible; stores confirm over the next ' +
    'delivery steps. 409 before submission.',
  stores:
    'The stores the next submission or redistribution targets (ids or aliases); null resets to all ' +
    'supported stores. Delivers nothing now. Unknown entries are ignored and named in note.',
  ugc:
    'Choose user-generated-content policies per store (307, 310, 319 or their aliases); a null policy resets ' +
    'the store to its default. Applies at the next delivery to those stores.',
};

const owner = (context: Context) => requirePrincipal(context).accountId;
const distribute = (context: Context, releaseId: string, storeIds: unknown) =>
  distributeToStores(context.em, owner(context), releaseId, storeIds, context.app.distributor);
const takedown = (context: Context, releaseId: string, storeIds: unknown) =>
  takedownStores(context.em, owner(context), releaseId, storeIds, context.app.distributor);

builder.mutationField('distributeRelease', (t) =>
  t.field({
    type: DistributeResultRef,
    authScopes: MCP,
    description: DESCRIPTIONS.distribute,
    args: { input: t.arg({ type: DistributeReleaseInputRef, required: true }) },
    resolve: (_root, { input }, context) => distribute(context, input.releaseId, input.storeIds),
  }),
);

builder.mutationField('distributeReleaseWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: DistributeResultRef,
    authScopes: MCP,
    description: DESCRIPTIONS.distribute,
    args: { releaseId: t.arg.id({ required: true }), storeIds: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, context) => distribute(context, args.releaseId, args.storeIds),
  }),
);

builder.mutationField('takedownRelease', (t) =>
  t.field({
    type: TakedownResultRef,
    authScopes: MCP,
    description: DESCRIPTIONS.takedown,
    args: { input: t.arg({ type: TakedownReleaseInputRef, required: true }) },
    resolve: (_root, { input }, context) => takedown(context, input.releaseId, input.storeIds ?? undefined),
  }),
);

builder.mutationField('takedownReleaseWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: TakedownResultRef,
    authScopes: MCP,
    description: `${DESCRIPTIONS.takedown} storeIds: an array of ids or aliases, or "all".`,
    args: { releaseId: t.arg.id({ required: true }), storeIds: t.arg({ type: 'JSON', required: false }) },
    resolve: (_root, args, context) => takedown(context, args.releaseId, args.storeIds),
  }),
);

builder.mutationField('setDistributionStores', (t) =>
  t.field({
    type: TargetStoresResultRef,
    authScopes: MCP,
    description: DESCRIPTIONS.stores,
    args: { input: t.arg({ type: SetDistributionStoresInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      setTargetStores(context.em, owner(context), input.releaseId, input.storeIds ?? null),
  }),
);

builder.mutationField('setDistributionStoresWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: TargetStoresResultRef,
    authScopes: MCP,
    description: DESCRIPTIONS.stores,
    args: { releaseId: t.arg.id({ required: true }), storeIds: t.arg({ type: 'JSON', required: false }) },
    resolve: (_root, args, context) =>
      setTargetStores(context.em, owner(context), args.releaseId, args.storeIds),
  }),
);

builder.mutationField('setUgcPolicies', (t) =>
  t.field({
    type: UgcPoliciesRef,
    authScopes: MCP,
    description: DESCRIPTIONS.ugc,
    args: { input: t.arg({ type: SetUgcPoliciesInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      setUgcPolicies(
        context.em,
        owner(context),
        input.releaseId,
        Object.fromEntries(input.policies.map((choice) => [String(choice.store), choice.policy ?? null])),
      ),
  }),
);

builder.mutationField('setUgcPoliciesWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: UgcPoliciesRef,
    authScopes: MCP,
    description: `${DESCRIPTIONS.ugc} policies: an object mapping a store id or alias to a code or null.`,
    args: { releaseId: t.arg.id({ required: true }), policies: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, context) =>
      setUgcPolicies(context.em, owner(context), args.releaseId, args.policies),
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
