import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { countStatementsByRequest } from '../support/sql-count.ts';

const app = useTestApp();
let account: AccountFixture;
const sql = countStatementsByRequest();
afterAll(() => sql.stop());

const LIST = `{ releases(limit: 50) {
  id title
  tracks { position title isrc credits }
  artists { name position }
  coverArt { fileUrl width }
} }`;

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 200 });
  const assets = await uploadAssets(app().url, account);
  for (let i = 0; i < 50; i++) {
    const body = validSubmission(assets, 2);
    body.release.title = `Release ${i}`;
    const answer = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  }
}, 120_000);

describe('SQL statements per request', () => {
  it('listing 50 releases with their tracks, artists and cover art runs a bounded number of statements', async () => {
    const requestId = `list-${Date.now()}`;
    const answer = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      headers: { 'x-request-id': requestId },
      body: { query: LIST },
    });
    expect(answer.body.errors).toBeUndefined();
    const releases = answer.body.data.releases as {
      tracks: unknown[];
      artists: unknown[];
      coverArt: unknown;
    }[];
    expect(releases).toHaveLength(50);
    expect(releases.every((r) => r.tracks.length === 2 && r.artists.length > 0 && r.coverArt)).toBe(true);
    const statements = sql.count(requestId);
    console.log(`statements for 50 releases with tracks, artists and cover art: ${statements}`);
    // token, releases, then one batch each for tracks, artists and cover files
    expect(statements).toBeLessThanOrEqual(6);
  });

  it("with GRAPHQL_BATCH_LOADS=false (the benchmark's baseline) the same list loads node by node", async () => {
    const perNode = await startTestApp({
      DATABASE_URL: app().services.config.DATABASE_URL ?? '',
      GRAPHQL_BATCH_LOADS: 'false',
    });
    try {
      const list = async (url: string, requestId: string) => {
        const answer = await request(url, 'POST', '/graphql', {
          token: account.token,
          headers: { 'x-request-id': requestId },
          body: { query: LIST },
        });
        expect(answer.body.errors).toBeUndefined();
        return { data: answer.body.data, statements: sql.count(requestId) };
      };
      const batched = await list(app().url, `batched-${Date.now()}`);
      const unbatched = await list(perNode.url, `per-node-${Date.now()}`);
      expect(unbatched.data).toEqual(batched.data);
      // token, releases, then one statement per release for tracks and for artists, and the one cover
      expect(unbatched.statements).toBeGreaterThanOrEqual(2 + 50 * 2);
    } finally {
      await perNode.close();
    }
  });
});
