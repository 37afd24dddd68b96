export { type DistributeResult, distributeToStores } from './distribute.ts';
export { type TakedownStoresResult, takedownStores } from './takedown.ts';
export { setTargetStores, type TargetStoresResult } from './target-stores.ts';
export {
  getUgcPolicies,
  setUgcPolicies,
  type UgcPoliciesResult,
  type UgcPolicyView,
} from './ugc-policies.ts';
export type { SkippedStoreView } from './views.ts';
