import type { EntityManager } from '@mikro-orm/postgresql';
import { type ErrorDetail, invalidRequest } from '../../../platform/errors.ts';
import {
  findStore,
  resolveStoreId,
  type Store,
  UGC_STORE_IDS,
  type UgcPolicyCode,
} from '../../catalog/index.ts';
import type { Release } from '../../releases/index.ts';
import { findOwnedRelease } from '../../releases/index.ts';
import { resolveUgcPolicy } from '../eligibility.ts';

export interface UgcPolicyView {
  storeId: number;
  storeName: string;
  aliases: string[];
  /** The code that applies at the next delivery to the store. */
  policy: string;
  /** True when no choice is stored for the store, so its default applies. */
  isDefault: boolean;
  selectable: UgcPolicyCode[];
  defaultCode: string;
}

export interface UgcPoliciesResult {
  releaseId: string;
  policies: UgcPolicyView[];
}

const UGC_STORES: Store[] = UGC_STORE_IDS.map((id) => findStore(id)).filter((s) => s?.ugcPolicy) as Store[];

function viewOf(release: Release): UgcPoliciesResult {
  const stored = release.ugcPolicies ?? {};
  return {
    releaseId: release.id,
    policies: UGC_STORES.map((store) => {
      const catalog = store.ugcPolicy!;
      const chosen = stored[String(store.storeId)];
      const valid = chosen !== undefined && catalog.codes.some((c) => c.code === chosen);
      return {
        storeId: store.storeId,
        storeName: store.name,
        aliases: [...store.aliases],
        policy: resolveUgcPolicy(store, chosen) ?? catalog.defaultCode,
        isDefault: !valid,
        selectable: catalog.codes.map((c) => ({ ...c })),
        defaultCode: catalog.defaultCode,
      };
    }),
  };
}

/** GET /releases/{id}/ugc-policies: the policy of each UGC store (defaults filled in) and its catalog. */
export async function getUgcPolicies(
  em: EntityManager,
  accountId: string,
  releaseId: string,
): Promise<UgcPoliciesResult> {
  return viewOf(await findOwnedRelease(em, accountId, releaseId, { field: 'releaseId' }));
}

const UGC_HINT = UGC_STORES.map((s) => `${s.storeId} (${s.aliases.join(', ')})`).join('; ');

/** The changes `policies` asks for, by store id (null = back to the default); 400 naming each bad entry. */
function readChanges(policies: unknown): Map<number, string | null> {
  if (typeof policies !== 'object' || policies === null || Array.isArray(policies)) {
    throw invalidRequest(
      'policies must be an object mapping a store id or alias to a policy code (null resets the default).',
      [{ path: 'policies', message: 'not an object' }],
      'invalid_ugc_policies',
    );
  }
  const changes = new Map<number, string | null>();
  const details: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(policies)) {
    const path = `policies.${key}`;
    const storeId = resolveStoreId(key);
    const store = storeId === null ? undefined : findStore(storeId);
    if (!store?.ugcPolicy) {
      details.push({
        path,
        message: `${key} is not a store with user-generated-content policies; use one of ${UGC_HINT}.`,
      });
      continue;
    }
    const codes = store.ugcPolicy.codes.map((c) => c.code);
    if (value !== null && (typeof value !== 'string' || !codes.includes(value))) {
      details.push({
        path,
        message:
          `${JSON.stringify(value)} is not a policy of ${store.name}; allowed codes: ${codes.join(', ')} ` +
          '(or null for the default).',
      });
      continue;
    }
    if (changes.has(store.storeId) && changes.get(store.storeId) !== value) {
      details.push({ path, message: `${store.name} is named twice with different policies.` });
      continue;
    }
    changes.set(store.storeId, value);
  }
  if (details.length > 0) {
    throw invalidRequest(details.map((d) => d.message).join(' '), details, 'invalid_ugc_policies');
  }
  return changes;
}

/**
 * PUT /releases/{id}/ugc-policies: stores per-store policy choices on the release (keys are store ids or
 * aliases of 307, 310, 319; null resets a store to its default). Applies at the next delivery to those
 * stores; deliveries already made keep their policy.
 */
export async function setUgcPolicies(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  policies: unknown,
): Promise<UgcPoliciesResult> {
  return em.transactional(async (tem) => {
    const release = await findOwnedRelease(tem, accountId, releaseId, { field: 'releaseId', lock: true });
    const changes = readChanges(policies);
    const next: Record<string, string> = { ...(release.ugcPolicies ?? {}) };
    for (const [storeId, code] of changes) {
      if (code === null) delete next[String(storeId)];
      else next[String(storeId)] = code;
    }
    release.ugcPolicies = Object.keys(next).length > 0 ? next : null;
    await tem.flush();
    return viewOf(release);
  });
}
