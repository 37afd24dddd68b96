import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const app = useTestApp();
let owner: AccountFixture;
let stranger: AccountFixture;
let pager: AccountFixture;
const ids: Record<string, string> = {};
let submittedUpc: string;

const SEARCH = `query($search: String, $first: Int, $after: String, $last: Int, $before: String) {
  releasesConnection(search: $search, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id title } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

async function draft(account: AccountFixture, release: Record<string, unknown>, tracks?: unknown[]) {
  const answer = await request(app().url, 'POST', '/v1/drafts', {
    token: account.token,
    body: { release, ...(tracks ? { tracks } : {}) },
  });
  expect(answer.status).toBe(200);
  return answer.body.releaseId as string;
}

async function search(account: AccountFixture, variables: Record<string, unknown>) {
  const answer = await graphql(app().url, SEARCH, variables, account.token);
  expect(answer.body.errors).toBeUndefined();
  const connection = answer.body.data.releasesConnection;
  return {
    ids: connection.edges.map((e: { node: { id: string } }) => e.node.id) as string[],
    titles: connection.edges.map((e: { node: { title: string } }) => e.node.title) as string[],
    info: connection.pageInfo,
  };
}

const found = async (account: AccountFixture, text: string) => (await search(account, { search: text })).ids;

beforeAll(async () => {
  const em = app().em();
  owner = await accountWithToken(em, { credits: 20 });
  stranger = await accountWithToken(em);
  pager = await accountWithToken(em);
  const assets = await uploadAssets(app().url, owner);

  const body = validSubmission(assets, 2);
  body.release.title = 'Harbour Lights at Dawn';
  body.tracks[1]!.isrc = 'USABC2400001';
  const submitted = await request(app().url, 'POST', '/v1/releases', { token: owner.token, body });
  expect(submitted.status).toBe(201);
  ids.submitted = submitted.body.releaseId;
  submittedUpc = (await request(app().url, 'GET', `/v1/releases/${ids.submitted}`, { token: owner.token }))
    .body.upc;

  ids.draft = await draft(owner, { title: 'Blue 100% Demo_1', upc: '0724384960650' }, [
    { title: 'Demo track', isrc: 'gb-xyz-24-00077' },
  ]);
  ids.other = await draft(owner, { title: 'Untitled sketch' });
  ids.quoted = await draft(owner, { title: "Rock 'n' Roll \\ Back" });
  // Another account's drafts with the same title words, the same ISRC and the same UPC.
  ids.foreign = await draft(stranger, { title: 'Harbour Lights (stranger)', upc: submittedUpc }, [
    { title: 'Copied', isrc: 'USABC2400001' },
  ]);
}, 120_000);

describe('releasesConnection(search)', () => {
  it('finds a part of the title, whatever its case', async () => {
    expect(await found(owner, 'harbour')).toEqual([ids.submitted]);
    expect(await found(owner, '  LIGHTS AT  ')).toEqual([ids.submitted]);
    expect(await found(owner, 'demo')).toEqual([ids.draft]);
  });

  it('matches %, _, quotes and backslashes literally', async () => {
    expect(await found(owner, '100%')).toEqual([ids.draft]);
    expect(await found(owner, 'o_1')).toEqual([ids.draft]);
    expect(await found(owner, '%')).toEqual([ids.draft]);
    expect(await found(owner, 'Blue_')).toEqual([]);
    expect(await found(owner, "'N' ROLL \\ b")).toEqual([ids.quoted]);
    expect(await found(owner, '\\')).toEqual([ids.quoted]);
    expect(await found(owner, "n'")).toEqual([ids.quoted]);
  });

  it('finds an exact UPC: the assigned one of a submission, a draft’s own, in its 12- and 13-digit forms', async () => {
    expect(submittedUpc).toMatch(/^\d{12}$/);
    expect(await found(owner, submittedUpc)).toEqual([ids.submitted]);
    expect(await found(owner, `0${submittedUpc}`)).toEqual([ids.submitted]);
    expect(await found(owner, '0724384960650')).toEqual([ids.draft]);
    expect(await found(owner, '724384960650')).toEqual([ids.draft]);
    expect(await found(owner, submittedUpc.slice(0, 11))).toEqual([]);
  });

  it('finds the exact ISRC of a track, whatever its case and hyphens', async () => {
    for (const isrc of ['USABC2400001', 'usabc2400001', 'us-abc-24-00001', ' US-ABC-24-00001 '])
      expect(await found(owner, isrc)).toEqual([ids.submitted]);
    // A draft keeps the ISRC as it was typed; the search reads it the same way.
    expect(await found(owner, 'GBXYZ2400077')).toEqual([ids.draft]);
    expect(await found(owner, 'gb-xyz-24-00077')).toEqual([ids.draft]);
    expect(await found(owner, 'USABC2400002')).toEqual([]);
  });

  it('answers an empty page when nothing matches', async () => {
    const none = await search(owner, { search: 'no such release anywhere' });
    expect(none.ids).toEqual([]);
    expect(none.info).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });

  it("never shows another account's releases, whatever matches", async () => {
    expect(await found(stranger, 'harbour')).toEqual([ids.foreign]);
    expect(await found(stranger, 'USABC2400001')).toEqual([ids.foreign]);
    expect(await found(stranger, submittedUpc)).toEqual([ids.foreign]);
    expect(await found(stranger, 'demo')).toEqual([]);
    expect(await found(owner, 'stranger')).toEqual([]);
  });

  it('refuses an empty or over-long search with invalid_argument naming `search`', async () => {
    for (const text of ['', '   ', 'x'.repeat(201)]) {
      const answer = await graphql(app().url, SEARCH, { search: text }, owner.token);
      expect(answer.body.data?.releasesConnection ?? null).toBeNull();
      expect(answer.body.errors?.[0]?.extensions).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_argument',
        details: [{ path: 'search' }],
      });
    }
    // 200 characters once trimmed are fine.
    expect(await found(owner, ` ${'x'.repeat(200)} `)).toEqual([]);
  });
});

describe('paging 60 releases, with and without a search', () => {
  let all: string[];
  let even: string[];

  beforeAll(async () => {
    for (let i = 0; i < 60; i++) await draft(pager, { title: `${i % 2 === 0 ? 'Even' : 'Odd'} song ${i}` });
    const whole = await search(pager, { first: 100 });
    all = whole.ids;
    even = whole.titles.flatMap((title, i) => (title.startsWith('Even') ? [all[i]!] : []));
    expect(all).toHaveLength(60);
    expect(even).toHaveLength(30);
  }, 120_000);

  async function pageForward(variables: Record<string, unknown>, size: number) {
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const page = await search(pager, { ...variables, first: size, after });
      seen.push(...page.ids);
      expect(page.info.hasPreviousPage).toBe(after !== null);
      if (!page.info.hasNextPage) return seen;
      after = page.info.endCursor;
    }
    throw new Error('did not reach the end');
  }

  it('pages the whole list forward without a search', async () => {
    expect(await pageForward({}, 25)).toEqual(all);
  });

  it('pages a search forward across pages, in the same order, nothing repeated or skipped', async () => {
    expect(await pageForward({ search: 'even' }, 7)).toEqual(even);
  });

  it('pages a search backward from its end', async () => {
    const tail = await search(pager, { search: 'EVEN', last: 5 });
    expect(tail.ids).toEqual(even.slice(-5));
    expect(tail.info).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const before = await search(pager, { search: 'even', last: 5, before: tail.info.startCursor });
    expect(before.ids).toEqual(even.slice(-10, -5));
  });

  it("a cursor pages only its own search: another search's, or none, is refused with invalid_cursor", async () => {
    const first = await search(pager, { search: 'even', first: 5 });
    const plain = await search(pager, { first: 5 });
    const refused = [
      { search: 'odd', first: 5, after: first.info.endCursor },
      { first: 5, after: first.info.endCursor },
      { search: 'even', first: 5, after: plain.info.endCursor },
      { search: 'even', last: 5, before: plain.info.startCursor },
    ];
    for (const variables of refused) {
      const answer = await graphql(app().url, SEARCH, variables, pager.token);
      expect(answer.body.errors?.[0]?.extensions).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_cursor',
        details: [{ path: 'after' in variables ? 'after' : 'before' }],
      });
      expect(answer.body.errors?.[0]?.message).toContain('Start again without a cursor');
    }
    // The same search in other letters finds the same releases: its cursors carry on.
    const next = await search(pager, { search: '  EVEN ', first: 5, after: first.info.endCursor });
    expect(next.ids).toEqual(even.slice(5, 10));
  });
});

describe('GET /v1/releases?search= and the agent tool', () => {
  it('REST lists what the search finds, additively: the same item fields as without it', async () => {
    const plain = await request(app().url, 'GET', '/v1/releases?limit=50', { token: owner.token });
    const searched = await request(app().url, 'GET', '/v1/releases?search=us-abc-24-00001', {
      token: owner.token,
    });
    expect(searched.status).toBe(200);
    expect(searched.body.releases.map((r: { id: string }) => r.id)).toEqual([ids.submitted]);
    const sameRelease = plain.body.releases.find((r: { id: string }) => r.id === ids.submitted);
    expect(searched.body.releases[0]).toEqual(sameRelease);
    const limited = await request(app().url, 'GET', '/v1/releases?search=e&limit=1', { token: owner.token });
    expect(limited.body.releases).toHaveLength(1);
  });

  it('REST refuses an empty or over-long search: 400 invalid_argument naming `search`', async () => {
    for (const text of ['%20%20', 'y'.repeat(201)]) {
      const answer = await request(app().url, 'GET', `/v1/releases?search=${text}`, { token: owner.token });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_argument',
        details: [{ path: 'search' }],
      });
    }
  });

  it('list_releases takes the same search', async () => {
    const response = await request(app().url, 'POST', '/api/mcp', {
      token: owner.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_releases', arguments: { search: 'HARBOUR' } },
      },
    });
    const releases = JSON.parse(response.body.result.content[0].text);
    expect(releases.map((r: { id: string }) => r.id)).toEqual([ids.submitted]);
    const agentHttp = await request(app().url, 'GET', '/api/mcp/releases?search=untitled', {
      token: owner.token,
    });
    expect(agentHttp.body.releases.map((r: { id: string }) => r.id)).toEqual([ids.other]);
  });
});
