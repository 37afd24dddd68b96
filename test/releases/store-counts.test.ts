import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { countStatementsByRequest } from '../support/sql-count.ts';

const app = useTestApp();
const sql = countStatementsByRequest();
afterAll(() => sql.stop());

let account: AccountFixture;
let mixed: string;
let early: string;
let untouched: string;
let draft: string;

const COUNTS = 'storeCounts { total live inDelivery failed takenDown }';

/** Puts the release's stores where the test wants them, as the delivery steps would have. */
async function setStores(
  releaseId: string,
  statuses: Record<number, [status: string, before?: string]>,
): Promise<void> {
  const em = app().em();
  for (const [storeId, [status, before]] of Object.entries(statuses)) {
    const changed = await em.execute(
      'update deliveries set status = ?, status_before_takedown = ? where release_id = ? and store_id = ? returning id',
      [status, before ?? null, releaseId, Number(storeId)],
    );
    expect(changed).toHaveLength(1);
  }
}

async function submit(assets: Awaited<ReturnType<typeof uploadAssets>>, title: string): Promise<string> {
  const body = validSubmission(assets, 2);
  body.release.title = title;
  const answer = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.releaseId;
}

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 30 });
  const assets = await uploadAssets(app().url, account);
  mixed = await submit(assets, 'Mixed stores');
  early = await submit(assets, 'Early takedown');
  untouched = await submit(assets, 'Just submitted');
  const saved = await request(app().url, 'POST', '/v1/drafts', {
    token: account.token,
    body: { release: { title: 'A draft' } },
  });
  draft = saved.body.releaseId;
  // The release schema's example targets stores 301, 302, 304, 305, 306 and 319.
  await setStores(mixed, {
    301: ['live'],
    302: ['delivered'],
    304: ['rejected'],
    305: ['failed'],
    306: ['taken_down'],
    319: ['takedown_requested', 'live'],
  });
  await setStores(early, { 301: ['takedown_requested', 'in_inspection'], 302: ['in_inspection'] });
}, 120_000);

describe('Release.storeCounts', () => {
  it('counts each store once, by where it stands; a pending takedown as what the store was', async () => {
    const answer = await graphql(
      app().url,
      `query($id: ID!) { release(id: $id) { ${COUNTS} } }`,
      { id: mixed },
      account.token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.release.storeCounts).toEqual({
      total: 6,
      live: 2,
      inDelivery: 1,
      failed: 2,
      takenDown: 1,
    });
    const statuses = await graphql(
      app().url,
      'query($id: ID!) { releaseStatus(releaseId: $id) { stores { storeId statusText } } }',
      { id: mixed },
      account.token,
    );
    expect(statuses.body.data.releaseStatus.stores).toHaveLength(6);
  });

  it('reads a page of releases in one statement: zeros for a draft, the counts of each release', async () => {
    const requestId = `store-counts-${Date.now()}`;
    const answer = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      headers: { 'x-request-id': requestId },
      body: { query: `{ releasesConnection(first: 10) { edges { node { id ${COUNTS} } } } }` },
    });
    expect(answer.body.errors).toBeUndefined();
    const byId = Object.fromEntries(
      answer.body.data.releasesConnection.edges.map((e: { node: { id: string; storeCounts: unknown } }) => [
        e.node.id,
        e.node.storeCounts,
      ]),
    );
    expect(byId).toEqual({
      [draft]: { total: 0, live: 0, inDelivery: 0, failed: 0, takenDown: 0 },
      [untouched]: { total: 6, live: 0, inDelivery: 6, failed: 0, takenDown: 0 },
      [early]: { total: 6, live: 0, inDelivery: 6, failed: 0, takenDown: 0 },
      [mixed]: { total: 6, live: 2, inDelivery: 1, failed: 2, takenDown: 1 },
    });
    const statements = sql.texts(requestId);
    expect(statements.filter((text) => /\bdeliveries\b/.test(text))).toHaveLength(1);
    // the token (unless just verified), the page, the counts
    expect(statements.length).toBeLessThanOrEqual(3);
  });
});
