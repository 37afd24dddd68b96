import type { Store } from '../catalog/index.ts';
import type { SkipReason } from './distributor.ts';

export interface EligibilityOptions {
  /** Stores needing partner approval that the account is approved for (none are, yet). */
  partnerApprovedStoreIds?: readonly number[];
  /** The release's chosen UGC policy codes by store id; a missing or null entry means the default. */
  ugcPolicies?: Readonly<Record<number, string | null | undefined>>;
}

export type Eligibility = { ok: true; ugcPolicy: string | null } | { ok: false; reason: SkipReason };

/** The policy a UGC store applies: the release's choice when the catalog offers it, else the default. */
export function resolveUgcPolicy(store: Store, chosen: string | null | undefined): string | null {
  const catalog = store.ugcPolicy;
  if (!catalog) return null;
  if (chosen && catalog.codes.some((code) => code.code === chosen)) return chosen;
  return catalog.codes.some((code) => code.code === catalog.defaultCode) ? catalog.defaultCode : null;
}

/**
 * Whether the release may go to the store now: a content-match store needs partner approval of the
 * account, and a user-generated-content store needs a policy it can apply.
 */
export function eligibilityFor(store: Store, options: EligibilityOptions = {}): Eligibility {
  if (store.requiresPartnerApproval && !options.partnerApprovedStoreIds?.includes(store.storeId)) {
    return { ok: false, reason: 'partner_approval_required' };
  }
  if (!store.ugcPolicy) return { ok: true, ugcPolicy: null };
  const ugcPolicy = resolveUgcPolicy(store, options.ugcPolicies?.[store.storeId]);
  return ugcPolicy ? { ok: true, ugcPolicy } : { ok: false, reason: 'ugc_policy_unresolvable' };
}
