import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 5 });
});

async function send(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app().url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${account.token}`, ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, requestId: response.headers.get('x-request-id'), body };
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...extra });
const alive = async () => expect((await send('/v1/status')).status).toBe(200);

describe('a multipart body without its closing boundary', () => {
  const form = '--fz\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\nabc';
  const headers = { 'content-type': 'multipart/form-data; boundary=fz' };

  it.each(['/api/mcp/upload', '/api/mcp/upload/chunk'])(
    'answers 400 invalid_multipart on %s and keeps serving',
    async (path) => {
      const answer = await send(path, { method: 'POST', headers, body: form });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_multipart' });
      await alive();
    },
  );

  it('answers a form cut inside a field part the same way', async () => {
    const cut = '--fz\r\nContent-Disposition: form-data; name="type"\r\n\r\ncov';
    const answer = await send('/api/mcp/upload', { method: 'POST', headers, body: cut });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_multipart');
    await alive();
  });
});

describe('bodies that do not decode as their headers say', () => {
  const broken = {
    gzip: [Buffer.from('not gzip at all'), gzipSync('{"release":{}}').subarray(0, 12)],
    deflate: [Buffer.from('not deflate'), deflateSync('{"release":{}}').subarray(0, 6)],
    br: [
      Buffer.from('not brotli \u00ff\u00fe'),
      brotliCompressSync('{"release":{"title":"x"}}').subarray(0, 5),
    ],
  } as const;

  for (const [encoding, bodies] of Object.entries(broken)) {
    it(`REST: ${encoding} that is not or not entirely compressed data is 400 invalid_content_encoding`, async () => {
      for (const body of bodies) {
        const answer = await send('/v1/drafts', {
          method: 'POST',
          headers: json({ 'content-encoding': encoding }),
          body,
        });
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({
          type: 'invalid_request_error',
          code: 'invalid_content_encoding',
        });
        expect(answer.body.requestId).toBe(answer.requestId);
      }
    });

    it(`JSON-RPC: ${encoding} garbage is a JSON-RPC error with HTTP 400`, async () => {
      const answer = await send('/api/mcp', {
        method: 'POST',
        headers: json({ 'content-encoding': encoding }),
        body: bodies[0],
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, data: { type: 'invalid_request_error', code: 'invalid_content_encoding' } },
      });
    });
  }

  it('agent HTTP routes under /api/mcp/* answer in the REST envelope', async () => {
    const answer = await send('/api/mcp/submit', {
      method: 'POST',
      headers: json({ 'content-encoding': 'gzip' }),
      body: 'nope',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_content_encoding' });
    const unsupported = await send('/api/mcp/submit', {
      method: 'POST',
      headers: json({ 'content-encoding': 'compress' }),
      body: '{}',
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({ code: 'unsupported_content_encoding' });
  });

  it('GraphQL over HTTP answers a corrupt gzip body with 400', async () => {
    const answer = await send('/graphql', {
      method: 'POST',
      headers: json({ 'content-encoding': 'gzip' }),
      body: 'not gzip',
    });
    expect(answer.status).toBe(400);
    await alive();
  });

  it('an unsupported charset is 400 unsupported_charset on REST and on JSON-RPC', async () => {
    const rest = await send('/v1/drafts', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin-9' },
      body: '{}',
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_charset' });
    const rpc = await send('/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=klingon' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(rpc.status).toBe(400);
    expect(rpc.body.error.data.code).toBe('unsupported_charset');
  });

  it('JSON nested 3,000 deep is 400 json_too_deep on REST and JSON-RPC, and GraphQL refuses it too', async () => {
    const deep = `{"release":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    const rest = await send('/v1/drafts', { method: 'POST', headers: json(), body: deep });
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('json_too_deep');
    const rpc = await send('/api/mcp', { method: 'POST', headers: json(), body: deep });
    expect(rpc.status).toBe(400);
    expect(rpc.body.error.data.code).toBe('json_too_deep');
    const graphql = await send('/graphql', {
      method: 'POST',
      headers: json(),
      body: `{"query":"mutation($t: [JSON!]) { saveDraft(input: { uploadRequests: $t }) { releaseId } }","variables":{"t":${'['.repeat(3000)}${']'.repeat(3000)}}}`,
    });
    expect(graphql.status).toBeLessThan(500);
    expect(JSON.stringify(graphql.body)).not.toContain('internal_error');
    expect(graphql.body.errors?.[0]?.extensions?.type ?? graphql.body.data).toBeTruthy();
    await alive();
  });
});

describe('paths with bad percent-encoding', () => {
  it.each(['/v1/releases/%ZZ', '/v1/releases/%ZZ/status', '/api/files/%ZZ/x/y', '/api/files/signed/%uD800'])(
    '%s is 400 invalid_path_encoding in the envelope',
    async (path) => {
      const answer = await send(path);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_path_encoding' });
      expect(answer.body.requestId).toBe(answer.requestId);
    },
  );
});
