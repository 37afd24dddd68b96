import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 5 });
});

const post = (path: string, body: unknown) =>
  request(app().url, 'POST', path, { token: account.token, body });

async function releaseRows(): Promise<number> {
  const rows = await app()
    .em()
    .getConnection()
    .execute<{ n: string }[]>('SELECT count(*) AS n FROM releases WHERE account_id = ?', [account.accountId]);
  return Number(rows[0]?.n);
}

describe('values the database would refuse are refused at the edge', () => {
  it('a NUL character in a release title is 400 invalid_string naming the field, and nothing is written', async () => {
    const before = await releaseRows();
    const answer = await post('/v1/drafts', { release: { title: 'a\u0000b' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_string',
      details: [{ path: 'release.title' }],
    });
    expect(await releaseRows()).toBe(before);
  });

  it('a NUL character anywhere (file name, GraphQL literal, agent tool argument) is 400, never 500', async () => {
    const file = await post('/v1/files', { type: 'coverArt', file_name: 'x\u0000.png', data_base64: 'AAAA' });
    expect(file.status).toBe(400);
    expect(file.body.code).toBe('invalid_string');
    const literal = await graphql(
      app().url,
      'mutation { saveDraft(input: { conversationId: "c\\u0000d" }) { releaseId } }',
      {},
      account.token,
    );
    expect(literal.body.errors?.[0]?.extensions).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_string',
    });
    const tool = await post('/api/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'save_draft', arguments: { release: { title: 'x\u0000' } } },
    });
    expect(JSON.stringify(tool.body)).toContain('invalid_string');
  });

  it('a 600-character release title is 400 with its limit, and nothing is written', async () => {
    const before = await releaseRows();
    const answer = await post('/v1/drafts', { release: { title: 'x'.repeat(600) } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: 'invalid_request_error',
      details: [{ path: 'release.title' }],
    });
    expect(answer.body.message).toContain('at most 500 characters');
    expect(await releaseRows()).toBe(before);
  });

  it('an over-long track title on quote and submit is 400 with the track path', async () => {
    for (const path of ['/v1/releases/quote', '/v1/releases']) {
      const answer = await post(path, { release: { title: 'Fine' }, tracks: [{ title: 'y'.repeat(501) }] });
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].path).toBe('tracks[0].title');
    }
  });

  it('tracks: [null] on quote is 400 naming tracks[0]', async () => {
    const answer = await post('/v1/releases/quote', { release: {}, tracks: [null] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', details: [{ path: 'tracks[0]' }] });
  });

  it('empty and malformed ids reaching a UUID column are 400 naming the argument', async () => {
    const revoke = await graphql(
      app().url,
      'mutation { revokeAccessToken(id: "") { id } }',
      {},
      account.token,
    );
    expect(revoke.body.errors?.[0]?.extensions).toMatchObject({
      type: 'invalid_request_error',
      details: [{ path: 'id' }],
    });
    const incoming = await graphql(
      app().url,
      'mutation { storeIncomingFile(incomingId: "nope", type: COVER_ART, fileName: "x.png") { fileUrl } }',
      {},
      account.token,
    );
    expect(incoming.body.errors?.[0]?.extensions).toMatchObject({
      type: 'invalid_request_error',
      details: [{ path: 'incomingId' }],
    });
  });
});

describe('REST bodies', () => {
  it('a JSON array or scalar where an object belongs is 400 invalid_body, and nothing is written', async () => {
    const before = await releaseRows();
    for (const body of [[], [{ release: {} }]]) {
      const answer = await post('/v1/drafts', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_body' });
    }
    expect(await releaseRows()).toBe(before);
  });

  it('error paths inside a renamed field use the REST name (track_patches[0].title)', async () => {
    const answer = await post('/v1/drafts', { track_patches: [{ index: 0, title: 'z'.repeat(501) }] });
    expect(answer.status).toBe(400);
    expect(answer.body.details[0].path).toBe('track_patches[0].title');
  });
});
