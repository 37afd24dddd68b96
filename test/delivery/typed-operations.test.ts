import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';

const app = useTestApp();

describe('store operations take typed inputs on GraphQL', () => {
  async function draft() {
    const account = await accountWithToken(app().em());
    const saved = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'Stores' } },
    });
    return { account, releaseId: saved.body.releaseId as string };
  }

  it('setDistributionStores takes store ids and aliases (StoreKey), and null resets', async () => {
    const { account, releaseId } = await draft();
    const set = (storeIds: unknown) =>
      graphql(
        app().url,
        'mutation($input: SetDistributionStoresInput!) { setDistributionStores(input: $input) { distributionStoreIds } }',
        { input: { releaseId, storeIds } },
        account.token,
      );
    const chosen = await set(['spotify', 307]);
    expect(chosen.body.errors).toBeUndefined();
    const ids = chosen.body.data.setDistributionStores.distributionStoreIds as number[];
    expect(ids).toContain(307);
    expect(ids).toHaveLength(2);
    const reset = await set(null);
    expect(reset.body.data.setDistributionStores.distributionStoreIds).toBeNull();
    const bad = await set([true]);
    expect(bad.body.errors?.[0]?.message).toContain('StoreKey');
  });

  it('setUgcPolicies takes a list of typed choices and answers enums', async () => {
    const { account, releaseId } = await draft();
    const answer = await graphql(
      app().url,
      `mutation($input: SetUgcPoliciesInput!) { setUgcPolicies(input: $input) {
        policies { storeId policy isDefault defaultCode selectable { code } } } }`,
      {
        input: {
          releaseId,
          policies: [
            { store: 307, policy: 'TRACK' },
            { store: 319, policy: null },
          ],
        },
      },
      account.token,
    );
    expect(answer.body.errors).toBeUndefined();
    const policies = answer.body.data.setUgcPolicies.policies as { storeId: number; policy: string }[];
    expect(policies.find((p) => p.storeId === 307)).toMatchObject({ policy: 'TRACK', isDefault: false });
    expect(policies.find((p) => p.storeId === 319)).toMatchObject({ isDefault: true });
    const rest = await request(app().url, 'GET', `/v1/releases/${releaseId}/ugc-policies`, {
      token: account.token,
    });
    const stored = rest.body.policies.find((p: { store_id: number }) => p.store_id === 307);
    expect(stored.policy).toBe('track');
  });

  it('distribute and takedown of a draft are 409, as on REST', async () => {
    const { account, releaseId } = await draft();
    const distribute = await graphql(
      app().url,
      'mutation($input: DistributeReleaseInput!) { distributeRelease(input: $input) { note } }',
      { input: { releaseId, storeIds: ['spotify'] } },
      account.token,
    );
    expect(distribute.body.errors?.[0]?.extensions?.type).toBe('conflict_error');
    const takedown = await graphql(
      app().url,
      'mutation($input: TakedownReleaseInput!) { takedownRelease(input: $input) { note } }',
      { input: { releaseId } },
      account.token,
    );
    expect(takedown.body.errors?.[0]?.extensions?.type).toBe('conflict_error');
    const empty = await graphql(
      app().url,
      'mutation($input: DistributeReleaseInput!) { distributeRelease(input: $input) { note } }',
      { input: { releaseId, storeIds: [] } },
      account.token,
    );
    expect(empty.body.errors?.[0]?.extensions?.code).toBe('invalid_argument');
  });
});
