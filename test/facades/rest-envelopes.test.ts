import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const ENVELOPE_KEYS = ['type', 'code', 'message', 'details', 'retryAfterSeconds', 'requestId'];

/** The documented envelope: type, code and message always; nothing beyond the optional keys. */
function expectEnvelope(body: Record<string, unknown>, type: string, code?: string): void {
  expect(Object.keys(body)).toEqual(expect.arrayContaining(['type', 'code', 'message']));
  expect(Object.keys(body).filter((key) => !ENVELOPE_KEYS.includes(key))).toEqual([]);
  expect(body.type).toBe(type);
  if (code) expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(String(body.message).length).toBeGreaterThan(0);
}

describe('REST error envelopes (the spec’s Errors table)', () => {
  const app = useTestApp();

  describe('401 authentication_error with a bearer challenge', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a malformed Authorization header', 'Token abc'],
      ['a Bearer header without a token', 'Bearer'],
      ['an unknown token', 'Bearer svc_pat_0000000000000000000000000000000000000000000'],
    ])('GET /v1/me with %s', async (_label, authorization) => {
      const response = await request(app().url, 'GET', '/v1/me', {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expectEnvelope(response.body, 'authentication_error');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(response.headers.get('content-type')).toContain('application/json');
    });
  });

  it('404 not_found_error for an unknown path under /v1', async () => {
    const response = await request(app().url, 'GET', '/v1/nope');
    expect(response.status).toBe(404);
    expectEnvelope(response.body, 'not_found_error', 'route_not_found');
  });

  it('405 with an Allow header for a known path and a wrong method', async () => {
    const response = await request(app().url, 'POST', '/v1/status', { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expectEnvelope(response.body, 'invalid_request_error', 'method_not_allowed');
  });

  it('400 invalid_json for a malformed JSON body (the body parser answers before routing)', async () => {
    for (const path of ['/v1/nope', '/v1/status']) {
      const response = await request(app().url, 'POST', path, { rawBody: '{"broken": ' });
      expect(response.status, path).toBe(400);
      expectEnvelope(response.body, 'invalid_request_error', 'invalid_json');
    }
  });

  describe('query parameters', () => {
    it.each([
      ['101', 'out of range'],
      ['-1', 'negative'],
      ['abc', 'not an integer'],
      ['1.5', 'not a whole number'],
    ])('?transactions=%s (%s) is 400 invalid_request_error naming the parameter', async (value) => {
      const account = await accountWithToken(app().em());
      const response = await request(app().url, 'GET', `/v1/me/credits?transactions=${value}`, {
        token: account.token,
      });
      expect(response.status).toBe(400);
      expectEnvelope(response.body, 'invalid_request_error');
      expect(response.body.details?.[0]?.path).toBe('transactions');
    });

    it('?transactions=0 is 200 with no transactions', async () => {
      const account = await accountWithToken(app().em(), { credits: 5 });
      const response = await request(app().url, 'GET', '/v1/me/credits?transactions=0', {
        token: account.token,
      });
      expect(response.status).toBe(200);
      expect(response.body.transactions).toEqual([]);
      expect(response.body.balance).toBe(5);
    });
  });

  it('masks unexpected errors as 500 api_error with a request id', async () => {
    const account = await accountWithToken(app().em(), { credits: 3 });
    const connection = app().em().getConnection();
    // Break this test file's own database under the credits query, then mend it.
    await connection.execute('alter table credit_transactions rename to credit_transactions_away');
    try {
      const response = await request(app().url, 'GET', '/v1/me/credits', {
        token: account.token,
        headers: { 'x-request-id': 'envelope-test-500' },
      });
      expect(response.status).toBe(500);
      expectEnvelope(response.body, 'api_error', 'internal_error');
      expect(response.body.requestId).toBe('envelope-test-500');
      expect(JSON.stringify(response.body)).not.toMatch(/credit_transactions|relation|sql|select/i);
    } finally {
      await connection.execute('alter table credit_transactions_away rename to credit_transactions');
    }
    const mended = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(mended.status).toBe(200);
  });
  it('JSON answers carry their charset and their exact byte length; a HEAD carries the head alone', async () => {
    const { token } = await accountWithToken(app().em());
    // A long answer with non-ASCII text (written in one piece whatever its size), then an error.
    const stores = await fetch(`${app().url}/v1/distribution-stores`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await stores.text();
    expect(text.length).toBeGreaterThan(1000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    expect(stores.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(stores.headers.get('content-length'))).toBe(Buffer.byteLength(text));

    const missing = await fetch(`${app().url}/v1/nope`);
    const missingText = await missing.text();
    expect(JSON.parse(missingText).code).toBe('route_not_found');
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(missing.headers.get('content-length'))).toBe(Buffer.byteLength(missingText));

    const head = await fetch(`${app().url}/v1/distribution-stores`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(await head.text()).toBe('');
  });
});
