import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('GraphQL Release', () => {
  const app = useTestApp();

  it('shows tracks with their billing, artists, cover art, credits spent, and pages as a Relay connection', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = validSubmission(assets, 2);
      if (i === 2) body.tracks[1]!.contains_ai = true;
      ids.push(
        (await request(app().url, 'POST', '/v1/releases', { token: account.token, body })).body.releaseId,
      );
    }
    const gql = (query: string, variables?: Record<string, unknown>) =>
      request(app().url, 'POST', '/graphql', { token: account.token, body: { query, variables } });

    const one = await gql(
      `query($id: ID!) { release(id: $id) { id status creditsSpent aggregateStatus
         tracks { position credits ai } artists { name isPrimary } coverArt { fileUrl width } artistProfiles { name isPrimary } } }`,
      { id: ids[2] },
    );
    expect(one.body.data.release).toMatchObject({
      id: ids[2],
      status: 'SUBMITTED',
      creditsSpent: 3,
      aggregateStatus: 'QUEUED',
      tracks: [
        { position: 0, credits: 1, ai: false },
        { position: 1, credits: 2, ai: true },
      ],
      coverArt: { fileUrl: assets.coverUrl, width: 3000 },
    });
    expect(one.body.data.release.artists[0].isPrimary).toBe(true);

    const page1 = await gql(
      '{ releasesConnection(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }',
    );
    const connection = page1.body.data.releasesConnection;
    expect(connection.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids[2], ids[1]]);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(
      'query($after: String) { releasesConnection(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }',
      {
        after: connection.pageInfo.endCursor,
      },
    );
    expect(page2.body.data.releasesConnection.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
      ids[0],
    ]);
    expect(page2.body.data.releasesConnection.pageInfo.hasNextPage).toBe(false);

    const other = await accountWithToken(app().em());
    const foreign = await request(app().url, 'POST', '/graphql', {
      token: other.token,
      body: { query: '{ releasesConnection(first: 5) { edges { node { id } } } }' },
    });
    expect(foreign.body.data.releasesConnection.edges).toEqual([]);
  });
});
