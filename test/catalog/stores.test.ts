import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STORE_IDS,
  findStore,
  resolveStoreId,
  SELECTION_SEMANTICS,
  STORES,
  UGC_STORE_IDS,
} from '../../src/domains/catalog/stores.ts';

describe('store catalog', () => {
  it('has unique integer store ids and non-empty names', () => {
    const ids = STORES.map((s) => s.storeId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(Number.isInteger)).toBe(true);
    expect(STORES.every((s) => s.name.trim().length > 0)).toBe(true);
    expect(STORES.length).toBeGreaterThanOrEqual(20);
  });

  it('has lowercase slug aliases, unique across stores', () => {
    const aliases = STORES.flatMap((s) => s.aliases);
    expect(new Set(aliases).size).toBe(aliases.length);
    for (const alias of aliases) expect(alias).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(STORES.every((s) => s.aliases.length > 0)).toBe(true);
  });

  it('describes the three user-generated-content stores exactly', () => {
    const policy = (id: number) => findStore(id)?.ugcPolicy;
    expect(policy(307)?.codes.map((c) => c.code)).toEqual(['monetize', 'track']);
    expect(policy(307)?.defaultCode).toBe('monetize');
    expect(policy(310)?.codes.map((c) => c.code)).toEqual(['claim_ad_earnings', 'block', 'monitor']);
    expect(policy(310)?.defaultCode).toBe('claim_ad_earnings');
    expect(policy(319)?.codes.map((c) => c.code)).toEqual(['monetize', 'library_only', 'block']);
    expect(policy(319)?.defaultCode).toBe('monetize');
    for (const id of UGC_STORE_IDS) expect(policy(id)?.storeId).toBe(id);
  });

  it('gives UGC policies only to 307, 310 and 319, each default among its codes', () => {
    const withPolicy = STORES.filter((s) => s.ugcPolicy !== null).map((s) => s.storeId);
    expect(withPolicy).toEqual([...UGC_STORE_IDS]);
    for (const s of STORES) {
      if (s.ugcPolicy) expect(s.ugcPolicy.codes.map((c) => c.code)).toContain(s.ugcPolicy.defaultCode);
    }
  });

  it('marks 307 as a content-match store needing partner approval, off by default', () => {
    const contentId = findStore(307);
    expect(contentId?.kind).toBe('content_id');
    expect(contentId?.requiresPartnerApproval).toBe(true);
    expect(contentId?.enabledByDefault).toBe(false);
    expect(DEFAULT_STORE_IDS).not.toContain(307);
    expect(STORES.filter((s) => s.requiresPartnerApproval).map((s) => s.storeId)).toEqual([307]);
  });

  it('lists exactly the enabled-by-default stores, sorted, as defaults', () => {
    const expected = STORES.filter((s) => s.enabledByDefault)
      .map((s) => s.storeId)
      .sort((a, b) => a - b);
    expect([...DEFAULT_STORE_IDS]).toEqual(expected);
    expect(DEFAULT_STORE_IDS.length).toBeGreaterThan(STORES.length / 2);
  });

  it('documents the selection semantics of distribution_store_ids', () => {
    expect(SELECTION_SEMANTICS.field).toBe('distribution_store_ids');
    expect(SELECTION_SEMANTICS.emptyArray).toMatch(/422/);
    for (const value of Object.values(SELECTION_SEMANTICS)) expect(typeof value).toBe('string');
  });
});

describe('resolveStoreId', () => {
  it('resolves every alias of every store, in any case', () => {
    for (const s of STORES) {
      for (const alias of s.aliases) {
        expect(resolveStoreId(alias)).toBe(s.storeId);
        expect(resolveStoreId(alias.toUpperCase())).toBe(s.storeId);
      }
    }
  });

  it('resolves the required UGC aliases', () => {
    expect(resolveStoreId('youtube-content-id')).toBe(307);
    expect(resolveStoreId('Content-ID')).toBe(307);
    expect(resolveStoreId('facebook-rights-manager')).toBe(310);
    expect(resolveStoreId('META-RIGHTS-MANAGER')).toBe(310);
    expect(resolveStoreId('TikTok')).toBe(319);
  });

  it('accepts numbers and numeric strings of known stores only', () => {
    expect(resolveStoreId(301)).toBe(301);
    expect(resolveStoreId(' 319 ')).toBe(319);
    expect(resolveStoreId(999_999)).toBeNull();
    expect(resolveStoreId('999999')).toBeNull();
    expect(resolveStoreId(1.5)).toBeNull();
  });

  it('tolerates spaces and underscores in aliases but rejects unknown names', () => {
    expect(resolveStoreId('Apple Music')).toBe(302);
    expect(resolveStoreId('youtube_music')).toBe(305);
    expect(resolveStoreId('myspace')).toBeNull();
    expect(resolveStoreId('')).toBeNull();
  });
});
