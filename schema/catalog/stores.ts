import {
  DEFAULT_STORE_IDS,
  SELECTION_SEMANTICS,
  STORE_KINDS,
  STORES,
  type Store,
  UGC_POLICY_CODES,
  type UgcPolicyCatalogEntry,
  type UgcPolicyCode,
} from '../../src/domains/catalog/index.ts';
import { builder, PUBLIC } from '../builder.ts';
import { enumFromList } from '../enums.ts';

export const UgcPolicyEnum = enumFromList('UgcPolicy', UGC_POLICY_CODES, {
  description:
    'A user-generated-content match policy; each UGC store offers its own subset (see UgcPolicyCatalog).',
});

const StoreKindEnum = enumFromList('StoreKind', STORE_KINDS, {
  description: 'What kind of service a store is.',
});

type SelectionSemantics = typeof SELECTION_SEMANTICS;

const SelectionSemanticsRef = builder.objectRef<SelectionSemantics>('StoreSelectionSemantics').implement({
  description: 'How `distribution_store_ids` (distributionStoreIds) selects stores, case by case.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The field these rules read.' }),
    omitted: t.exposeString('omitted'),
    null: t.exposeString('null'),
    emptyArray: t.exposeString('emptyArray'),
    array: t.exposeString('array'),
    aliases: t.exposeString('aliases'),
    unknownEntries: t.exposeString('unknownEntries'),
    defaultStoreIds: t.exposeString('defaultStoreIds'),
    partnerApproval: t.exposeString('partnerApproval'),
    ugcPolicies: t.exposeString('ugcPolicies'),
  }),
});

export const UgcPolicyCodeRef = builder.objectRef<UgcPolicyCode>('UgcPolicyCode').implement({
  description: 'A policy a UGC store offers.',
  fields: (t) => ({
    code: t.expose('code', { type: UgcPolicyEnum }),
    label: t.exposeString('label'),
    description: t.exposeString('description'),
  }),
});

export const UgcPolicyCatalogRef = builder.objectRef<UgcPolicyCatalogEntry>('UgcPolicyCatalog').implement({
  description: 'The user-generated-content match policies a store offers.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    kind: t.exposeString('kind'),
    codes: t.field({ type: [UgcPolicyCodeRef], resolve: (entry) => entry.codes }),
    defaultCode: t.expose('defaultCode', { type: UgcPolicyEnum }),
  }),
});

export const StoreRef = builder.objectRef<Store>('DistributionStore').implement({
  description: 'A digital store releases can be delivered to.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    name: t.exposeString('name'),
    featured: t.exposeBoolean('featured'),
    enabledByDefault: t.exposeBoolean('enabledByDefault'),
    aliases: t.exposeStringList('aliases'),
    kind: t.expose('kind', { type: StoreKindEnum }),
    requiresPartnerApproval: t.exposeBoolean('requiresPartnerApproval'),
    ugcPolicy: t.field({ type: UgcPolicyCatalogRef, nullable: true, resolve: (store) => store.ugcPolicy }),
  }),
});

interface StoreCatalog {
  stores: readonly Store[];
  defaultStoreIds: readonly number[];
  selectionSemantics: SelectionSemantics;
}

const StoreCatalogRef = builder.objectRef<StoreCatalog>('DistributionStoreCatalog').implement({
  description: 'Every store, the default selection and how a selection is read.',
  fields: (t) => ({
    stores: t.field({ type: [StoreRef], resolve: (catalog) => [...catalog.stores] }),
    defaultStoreIds: t.field({ type: ['Int'], resolve: (catalog) => [...catalog.defaultStoreIds] }),
    selectionSemantics: t.field({
      type: SelectionSemanticsRef,
      description: 'How `distribution_store_ids` selects stores (omitted, null, empty array, ids, aliases).',
      resolve: (catalog) => catalog.selectionSemantics,
    }),
  }),
});

builder.queryField('distributionStores', (t) =>
  t.field({
    type: StoreCatalogRef,
    description:
      'The stores a release can be delivered to, the default selection, and how `distribution_store_ids` is read.',
    authScopes: PUBLIC,
    resolve: () => ({
      stores: STORES,
      defaultStoreIds: DEFAULT_STORE_IDS,
      selectionSemantics: SELECTION_SEMANTICS,
    }),
  }),
);
