import { describe, expect, it } from 'vitest';
import { releaseSchema } from '../../src/domains/releases/release-schema.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets } from '../support/releases.ts';

const app = useTestApp();

describe('typed outputs where JSON was', () => {
  it('releaseSchema is typed on GraphQL and unchanged on REST', async () => {
    const account = await accountWithToken(app().em());
    const typed = await graphql(
      app().url,
      `{ releaseSchema { version required { release track writer } aliases { alias canonical }
        example { release { title distributionStoreIds } tracks { title writers { name sharePercent } } tokenOffset } } }`,
      {},
      account.token,
    );
    expect(typed.body.errors).toBeUndefined();
    const domain = releaseSchema();
    const schema = typed.body.data.releaseSchema;
    expect(schema.required.track).toEqual(domain.required.track);
    expect(schema.aliases).toContainEqual({ alias: 'second_genre', canonical: 'sub_genre' });
    expect(schema.aliases).toHaveLength(Object.keys(domain.aliases).length);
    expect(schema.example.tracks[0].writers).toEqual([
      { name: 'Lena Marlow', sharePercent: 60 },
      { name: 'Samuel Okafor', sharePercent: 40 },
    ]);
    const rest = await request(app().url, 'GET', '/v1/release-schema', { token: account.token });
    expect(rest.body.aliases.second_genre).toBe('sub_genre');
    expect(rest.body.example.tracks[0].writers[0].share_percent).toBe(60);
  });

  it('a checkout link is typed: the REST body in its wire names, the tool arguments in camelCase', async () => {
    const answer = await graphql(
      app().url,
      '{ pricing { bundles { packageId checkout { method path body { package_id } agentTool agentArguments { packageId } } } } }',
      {},
    );
    expect(answer.body.errors).toBeUndefined();
    const [bundle] = answer.body.data.pricing.bundles;
    expect(bundle.checkout).toEqual({
      method: 'POST',
      path: '/v1/credits/checkout',
      body: { package_id: bundle.packageId },
      agentTool: 'create_credit_checkout_session',
      agentArguments: { packageId: bundle.packageId },
    });
  });

  it('store kinds and UGC codes are enums; selection semantics a type', async () => {
    const answer = await graphql(
      app().url,
      '{ distributionStores { stores { storeId kind ugcPolicy { defaultCode codes { code } } } selectionSemantics { null emptyArray } } }',
      {},
    );
    expect(answer.body.errors).toBeUndefined();
    const catalog = answer.body.data.distributionStores;
    expect(catalog.selectionSemantics.emptyArray).toContain('422');
    const ugc = catalog.stores.find((s: { storeId: number }) => s.storeId === 319);
    expect(ugc.ugcPolicy.codes.map((c: { code: string }) => c.code)).toContain('LIBRARY_ONLY');
    expect(catalog.stores.every((s: { kind: string }) => /^[A-Z_]+$/.test(s.kind))).toBe(true);
    const rest = await request(app().url, 'GET', '/v1/distribution-stores');
    expect(rest.body.selectionSemantics.null).toBe(catalog.selectionSemantics.null);
  });

  it('File.media is typed: the stored audio stream and its source', async () => {
    const account = await accountWithToken(app().em());
    const assets = await uploadAssets(app().url, account);
    const answer = await graphql(
      app().url,
      `query($a: String!, $c: String!) {
        audio: file(fileUrl: $a) { media { audio { sampleRate codec lossless } source { sampleRate } width } }
        cover: file(fileUrl: $c) { media { width height audio { sampleRate } } } }`,
      { a: assets.audioUrl, c: assets.coverUrl },
      account.token,
    );
    expect(answer.body.errors).toBeUndefined();
    const { audio, cover } = answer.body.data;
    expect(audio.media.audio).toMatchObject({ codec: 'FLAC', lossless: true });
    expect(audio.media.source.sampleRate).toBeGreaterThan(0);
    expect(audio.media.width).toBeNull();
    expect(cover.media).toEqual({ width: 3000, height: 3000, audio: null });
  });
});
