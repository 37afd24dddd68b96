import {
  DEFAULT_STORE_IDS,
  SELECTION_SEMANTICS,
  STORES,
  type Store,
  type UgcPolicyCatalogEntry,
  type UgcPolicyCode,
} from '../../src/domains/catalog/stores.ts';
import { builder, PUBLIC } from '../builder.ts';

export const UgcPolicyCodeRef = builder.objectRef<UgcPolicyCode>('UgcPolicyCode').implement({
  description: 'A policy a UGC store offers.',
  fields: (t) => ({
    code: t.exposeString('code'),
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
    defaultCode: t.exposeString('defaultCode'),
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
    kind: t.exposeString('kind'),
    requiresPartnerApproval: t.exposeBoolean('requiresPartnerApproval'),
    ugcPolicy: t.field({ type: UgcPolicyCatalogRef, nullable: true, resolve: (store) => store.ugcPolicy }),
  }),
});

interface StoreCatalog {
  stores: readonly Store[];
  defaultStoreIds: readonly number[];
  selectionSemantics: unknown;
}

const StoreCatalogRef = builder.objectRef<StoreCatalog>('DistributionStoreCatalog').implement({
  description: 'Every store, the default selection and how a selection is read.',
  fields: (t) => ({
    stores: t.field({ type: [StoreRef], resolve: (catalog) => [...catalog.stores] }),
    defaultStoreIds: t.field({ type: ['Int'], resolve: (catalog) => [...catalog.defaultStoreIds] }),
    selectionSemantics: t.field({
      type: 'JSON',
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
