import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/domains/releases/rules/rule-catalog.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('catalog endpoints', () => {
  const app = useTestApp();

  it('GET /v1/distribution-stores is public and carries the UGC stores with their aliases', async () => {
    const response = await request(app().url, 'GET', '/v1/distribution-stores');
    expect(response.status).toBe(200);
    const ids = response.body.stores.map((s: { storeId: number }) => s.storeId);
    expect(ids).toEqual(expect.arrayContaining([307, 310, 319]));
    for (const store of response.body.stores) {
      expect(Object.keys(store).sort()).toEqual([
        'aliases',
        'enabledByDefault',
        'featured',
        'name',
        'storeId',
      ]);
      expect(store.aliases.length).toBeGreaterThan(0);
    }
    const defaults = response.body.stores
      .filter((s: { enabledByDefault: boolean }) => s.enabledByDefault)
      .map((s: { storeId: number }) => s.storeId);
    expect(response.body.defaultStoreIds).toEqual(defaults.sort((a: number, b: number) => a - b));
    expect(response.body.selectionSemantics).toHaveProperty('emptyArray');
  });

  it('GET /v1/metadata-rules: markdown by default, a JSON wrapper on request, both from the rules engine', async () => {
    const markdown = await request(app().url, 'GET', '/v1/metadata-rules');
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    for (const rule of RULES) expect(markdown.body).toContain(rule.id);
    const json = await request(app().url, 'GET', '/v1/metadata-rules', {
      headers: { accept: 'application/json' },
    });
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body.markdown).toBe(markdown.body);
    expect(json.body.rules).toHaveLength(RULES.length);
    expect(json.body.version).toBe(markdown.headers.get('etag')?.replaceAll('"', ''));
  });

  it('GET /v1/release-schema and /v1/language-script-codes need a bearer token', async () => {
    for (const path of ['/v1/release-schema', '/v1/language-script-codes']) {
      const anonymous = await request(app().url, 'GET', path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body.type).toBe('authentication_error');
    }
    const account = await accountWithToken(app().em());
    const schema = await request(app().url, 'GET', '/v1/release-schema', { token: account.token });
    expect(schema.status).toBe(200);
    expect(schema.body.required.release).toEqual(
      expect.arrayContaining(['title', 'primary_artist_name', 'cover_art_file_url']),
    );
    expect(schema.body.example.tracks.length).toBeGreaterThan(0);
    const codes = await request(app().url, 'GET', '/v1/language-script-codes', { token: account.token });
    expect(codes.body.codes).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'ja-Jpan', language: 'ja' })]),
    );
  });

  it('GET /v1/pricing: bundles with discounts and savings that add up', async () => {
    const response = await request(app().url, 'GET', '/v1/pricing');
    expect(response.body.perSong).toEqual({ human: 1, ai: 2, aiSurcharge: 1 });
    for (const bundle of response.body.bundles) {
      expect(bundle.savingsUsd).toBeCloseTo(
        bundle.credits * response.body.perCredit.usd - bundle.priceUsd,
        2,
      );
      expect(bundle.perCreditUsd).toBeCloseTo(bundle.priceUsd / bundle.credits, 3);
    }
    expect(response.body.creditsNeverExpire).toBe(true);
  });

  it('a fraud-only token cannot read svc:mcp fields (403 permission_error)', async () => {
    const account = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
    const response = await request(app().url, 'GET', '/v1/me', { token: account.token });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
  });
});
