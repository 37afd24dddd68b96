import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em());
});

/** A GET with the path sent exactly as written (fetch would resolve dot-segments, `%2e%2e` included). */
function rawGet(path: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(app().url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function expectRestEnvelope(body: Record<string, unknown>, code: string): void {
  expect(body).not.toHaveProperty('jsonrpc');
  expect(body).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  expect(typeof body.type).toBe('string');
}

describe('paths under /api/mcp/ answer the REST envelope; JSON-RPC answers only /api/mcp itself', () => {
  it('GET /api/mcp/release-jobs/%2e%2e, resolved by the client to /api/mcp/, gets the REST 405', async () => {
    const response = await request(app().url, 'GET', '/api/mcp/release-jobs/%2e%2e', {
      token: account.token,
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expectRestEnvelope(response.body, 'method_not_allowed');
    expect(response.body.type).toBe('invalid_request_error');
    expect(response.body.message).toContain('POST /api/mcp');
  });

  it.each(['/api/mcp/', '/api/mcp//', '/api/mcp/?x=1'])('GET %s as sent gets the REST 405', async (path) => {
    const response = await rawGet(path, account.token);
    expect(response.status).toBe(405);
    expectRestEnvelope(response.body, 'method_not_allowed');
  });

  it('the same path sent unresolved reaches the release-jobs route and its REST answer', async () => {
    const response = await rawGet('/api/mcp/release-jobs/%2e%2e', account.token);
    expect(response.status).toBe(400);
    expectRestEnvelope(response.body, 'invalid_release_id');
  });

  it('GET /api/mcp keeps the JSON-RPC 405 (MCP clients read it as "no stream"), POST /api/mcp/ runs JSON-RPC', async () => {
    const get = await request(app().url, 'GET', '/api/mcp', { token: account.token });
    expect(get.status).toBe(405);
    expect(get.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    const ping = await request(app().url, 'POST', '/api/mcp/', {
      token: account.token,
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(ping.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
