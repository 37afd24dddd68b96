import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';

const app = useTestApp();
let account: AccountFixture;

const PAGE = `query($first: Int, $after: String, $last: Int, $before: String) {
  releasesConnection(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { title } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

async function draft(title: string) {
  const answer = await request(app().url, 'POST', '/v1/drafts', {
    token: account.token,
    body: { release: { title } },
  });
  expect(answer.status).toBe(200);
}

async function page(variables: Record<string, unknown>) {
  const answer = await graphql(app().url, PAGE, variables, account.token);
  expect(answer.body.errors).toBeUndefined();
  const connection = answer.body.data.releasesConnection;
  return {
    titles: connection.edges.map((e: { node: { title: string } }) => e.node.title),
    info: connection.pageInfo,
  };
}

beforeAll(async () => {
  account = await accountWithToken(app().em());
  for (const title of ['r1', 'r2', 'r3', 'r4', 'r5']) await draft(title);
});

describe('releasesConnection: keyset cursors', () => {
  it('pages newest first and does not shift when releases are created between pages', async () => {
    const one = await page({ first: 2 });
    expect(one.titles).toEqual(['r5', 'r4']);
    expect(one.info).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    await draft('r6'); // newest: an offset cursor would now repeat r4
    const two = await page({ first: 2, after: one.info.endCursor });
    expect(two.titles).toEqual(['r3', 'r2']);
    const three = await page({ first: 2, after: two.info.endCursor });
    expect(three.titles).toEqual(['r1']);
    expect(three.info).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('pages backward with last/before', async () => {
    const all = await page({ first: 10 });
    const back = await page({ last: 2, before: all.info.endCursor });
    expect(back.titles).toEqual(all.titles.slice(-3, -1));
    expect(back.info.hasPreviousPage).toBe(true);
  });

  it('refuses a cursor it did not issue and an oversized page, with the field named', async () => {
    const bad = await graphql(app().url, PAGE, { first: 2, after: 'bm9wZQ' }, account.token);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_cursor',
    });
    const big = await graphql(app().url, PAGE, { first: 1000 }, account.token);
    expect(big.body.errors?.[0]?.extensions).toMatchObject({ details: [{ path: 'first' }] });
  });
});
