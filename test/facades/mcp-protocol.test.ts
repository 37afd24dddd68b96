import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function resultJson(body: { result: { content: { type: string; text: string }[] } }) {
  expect(body.result.content[0]?.type).toBe('text');
  return JSON.parse(body.result.content[0]!.text);
}

describe('agent interface: JSON-RPC over HTTP', () => {
  const app = useTestApp();
  const rpc = (body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    request(app().url, 'POST', '/api/mcp', { body, ...options });

  describe('initialize', () => {
    it('echoes a supported protocol version and answers the newest for an unknown one', async () => {
      const { token } = await accountWithToken(app().em());
      for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
        const response = await rpc(
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
          },
          { token },
        );
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('application/json');
        expect(response.body.result.protocolVersion).toBe(version);
      }
      const future = await rpc(
        { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2099-01-01' } },
        { token },
      );
      expect(future.body.result).toMatchObject({
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
        serverInfo: { name: 'tributary', version: 'test' },
      });
      expect(future.body.result.instructions).toContain('mcp://docs/metadata-rules-hitlist');
      expect(future.headers.get('mcp-session-id')).toBeNull();
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { token, headers: { 'mcp-protocol-version': '1999-01-01' } },
      );
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe(-32600);
      const ok = await rpc(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { token, headers: { 'mcp-protocol-version': '2025-06-18' } },
      );
      expect(ok.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });
  });

  describe('messages and batches', () => {
    it('accepts a notification with 202 and an empty body', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, { token });
      expect(response.status).toBe(202);
      expect(response.body).toBe('');
    });

    it('answers a mixed batch with an array in request order, skipping notifications', async () => {
      const { token } = await accountWithToken(app().em(), { credits: 3 });
      const response = await rpc(
        [
          call('c', 'get_credits', { transactionLimit: 1 }),
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 'p', method: 'ping' },
          { jsonrpc: '2.0', id: 'm', method: 'no/such/method' },
          call('x', 'get_nothing'),
          42,
        ],
        { token },
      );
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body.map((r: { id: unknown }) => r.id)).toEqual(['c', 'p', 'm', 'x', null]);
      expect(resultJson(response.body[0]).balance).toBe(3);
      expect(response.body[1].result).toEqual({});
      expect(response.body[2].error.code).toBe(-32601);
      expect(response.body[3].error.code).toBe(-32602);
      expect(response.body[4].error.code).toBe(-32600);
    });

    it('answers a batch of one request with an array of one', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc([{ jsonrpc: '2.0', id: 7, method: 'ping' }], { token });
      expect(response.body).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
    });

    it('answers a batch of only notifications with 202', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc(
        [
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        ],
        { token },
      );
      expect(response.status).toBe(202);
      expect(response.body).toBe('');
    });

    it('turns bad JSON into a -32700 parse error, not an HTML page', async () => {
      const response = await request(app().url, 'POST', '/api/mcp', {
        rawBody: '{"jsonrpc": "2.0", "id": 1,',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('answers an empty batch and a non-object with -32600', async () => {
      const { token } = await accountWithToken(app().em());
      expect((await rpc([], { token })).body.error.code).toBe(-32600);
      expect((await rpc('ping', { token })).body).toMatchObject({ id: null, error: { code: -32600 } });
    });

    it('refuses GET and DELETE with 405 and Allow: POST (no SSE stream, no sessions)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await request(app().url, method, '/api/mcp', {
          headers: { accept: 'text/event-stream' },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
    });
  });

  describe('tools', () => {
    it('suggests the right name for an unknown tool and points to tools/list', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc(call(1, 'get_profil'), { token });
      expect(response.status).toBe(200);
      expect(response.body.error).toMatchObject({
        code: -32602,
        message: 'Unknown tool "get_profil". Did you mean "get_profile"? Call tools/list for the full list.',
        data: { hint: 'tools/list' },
      });
      expect(response.body.error.data.suggestions[0]).toBe('get_profile');
      const viaAlias = await rpc(call(2, 'balanse'), { token });
      expect(viaAlias.body.error.data.suggestions).toContain('get_credits');
      const byWord = await rpc(call(3, 'stores'), { token });
      expect(byWord.body.error.data.suggestions).toContain('get_distribution_stores');
    });

    it('resolves aliases to the canonical tool with the same result', async () => {
      const { token } = await accountWithToken(app().em(), { credits: 12 });
      const response = await rpc(
        [
          call(1, 'get_credits', { transactionLimit: 2 }),
          call(2, 'get_balance', { transactionLimit: 2 }),
          call(3, 'balance', { transactionLimit: 2 }),
          call(4, 'get_profile'),
          call(5, 'get_me'),
          call(6, 'list_stores'),
          call(7, 'get_distribution_stores'),
        ],
        { token },
      );
      const [credits, alias1, alias2, profile, me, stores, canonicalStores] = response.body.map(resultJson);
      expect(credits.balance).toBe(12);
      expect(alias1).toEqual(credits);
      expect(alias2).toEqual(credits);
      expect(me).toEqual(profile);
      expect(stores).toEqual(canonicalStores);
      expect(stores.stores.length).toBeGreaterThan(0);
    });

    it('rejects invalid arguments with -32602 and the path of each problem', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc(
        [
          call(1, 'get_credits', { transactionLimit: 101 }),
          call(2, 'get_credits', { transactionLimit: 'x' }),
          call(3, 'get_credits', { transactions: 5 }),
          call(4, 'get_credits', { transactionLimit: 1.5 }),
        ],
        { token },
      );
      for (const answer of response.body) {
        expect(answer.error.code).toBe(-32602);
        expect(answer.error.data.type).toBe('invalid_request_error');
      }
      expect(response.body[0].error.data.details).toEqual([
        { path: 'transactionLimit', message: expect.any(String) },
      ]);
      expect(response.body[0].error.message).toContain('transactionLimit');
      expect(response.body[1].error.data.details[0].path).toBe('transactionLimit');
      expect(response.body[2].error.data.details).toEqual([
        { path: 'transactions', message: 'unknown argument' },
      ]);
      expect(response.body[3].error.data.details[0].path).toBe('transactionLimit');
    });

    it('returns an object result in structuredContent too, and the whole data for get_profile', async () => {
      const account = await accountWithToken(app().em());
      const response = await rpc(call(1, 'get_profile'), { token: account.token });
      const parsed = resultJson(response.body);
      expect(parsed.profile).toMatchObject({ id: account.accountId, email: account.email, is_admin: false });
      expect(Object.keys(parsed.profile)).toEqual([
        'id',
        'email',
        'first_name',
        'last_name',
        'created_at',
        'avatar_url',
        'is_insider',
        'is_patron',
        'is_admin',
      ]);
      expect(response.body.result.structuredContent).toEqual(parsed);
    });

    it('maps GraphQL errors to a JSON-RPC error with the HTTP status as code', async () => {
      const fraudOnly = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
      const response = await rpc(call(1, 'get_profile'), { token: fraudOnly.token });
      expect(response.status).toBe(200);
      expect(response.body.error).toMatchObject({
        code: 403,
        data: { type: 'permission_error', code: 'insufficient_scope', hint: expect.any(String) },
      });
    });
  });

  describe('resources', () => {
    it('lists and reads resources; an unknown URI is a 404-coded error', async () => {
      const { token } = await accountWithToken(app().em());
      const response = await rpc(
        [
          { jsonrpc: '2.0', id: 1, method: 'resources/list' },
          { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'mcp://docs/agent-guide' } },
          { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'mcp://docs/nope' } },
        ],
        { token },
      );
      const [list, guide, missing] = response.body;
      expect(list.result.resources[0]).toMatchObject({
        uri: 'mcp://docs/metadata-rules-hitlist',
        mimeType: 'text/markdown',
      });
      expect(list.result.resources[0].description).toMatch(/read.*first|first.*connect/i);
      expect(guide.result.contents[0]).toMatchObject({
        uri: 'mcp://docs/agent-guide',
        mimeType: 'text/markdown',
      });
      expect(guide.result.contents[0].text).toContain('metadata-rules-hitlist');
      expect(missing.error).toMatchObject({ code: 404, data: { code: 'resource_not_found' } });
    });
  });

  describe('authentication', () => {
    it('challenges a request without a token: 401, WWW-Authenticate, and the metadata it points to', async () => {
      const response = await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
      expect(response.status).toBe(401);
      const challenge = `Bearer resource_metadata="${app().url}/.well-known/oauth-protected-resource/api/mcp", scope="svc:mcp"`;
      expect(response.headers.get('www-authenticate')).toBe(challenge);
      expect(response.body).toMatchObject({
        jsonrpc: '2.0',
        id: 9,
        error: { code: 401, data: { type: 'authentication_error', code: 'missing_token' } },
      });

      const metadata = await request(app().url, 'GET', '/.well-known/oauth-protected-resource/api/mcp');
      expect(metadata.status).toBe(200);
      expect(metadata.body).toMatchObject({
        resource: `${app().url}/api/mcp`,
        authorization_servers: [app().url],
        scopes_supported: ['svc:mcp'],
        bearer_methods_supported: ['header'],
        resource_documentation: `${app().url}/api/mcp/docs`,
      });
      const root = await request(app().url, 'GET', '/.well-known/oauth-protected-resource');
      expect(root.body).toEqual(metadata.body);
    });

    it('answers a batch without a token with one 401 error per request id', async () => {
      const response = await rpc([
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]);
      expect(response.status).toBe(401);
      expect(response.body.map((r: { id: number; error: { code: number } }) => [r.id, r.error.code])).toEqual(
        [
          [1, 401],
          [2, 401],
        ],
      );
    });

    it('lets ping, notifications and public tools through without a token', async () => {
      const ping = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(ping.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      const note = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(note.status).toBe(202);
      const pricing = await rpc([call(1, 'get_pricing'), call(2, 'pricing')]);
      expect(pricing.status).toBe(200);
      expect(resultJson(pricing.body[0]).bundles.length).toBeGreaterThan(0);
      expect(resultJson(pricing.body[1])).toEqual(resultJson(pricing.body[0]));
    });

    it('accepts access_token as a tool argument when there is no header', async () => {
      const account = await accountWithToken(app().em(), { credits: 5 });
      const response = await rpc(
        call(1, 'get_credits', { transactionLimit: 1, access_token: account.token }),
      );
      expect(response.status).toBe(200);
      expect(resultJson(response.body).balance).toBe(5);
      const profile = await rpc(call(2, 'get_profile', { access_token: account.token }));
      expect(resultJson(profile.body).profile.id).toBe(account.accountId);
    });

    it('answers an invalid access_token argument with a JSON-RPC 401 for that call', async () => {
      const response = await rpc([
        call(1, 'get_profile', { access_token: 'svc_pat_not-a-real-token' }),
        call(2, 'get_pricing'),
      ]);
      expect(response.status).toBe(200);
      expect(response.body[0].error).toMatchObject({
        code: 401,
        data: { type: 'authentication_error', hint: expect.stringContaining('svc:mcp') },
      });
      expect(resultJson(response.body[1]).currency).toBe('USD');
    });

    it('challenges a revoked bearer token with 401 and error="invalid_token"', async () => {
      const account = await accountWithToken(app().em());
      expect(
        (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: account.token })).status,
      ).toBe(200);
      const revoke = await request(app().url, 'POST', '/graphql', {
        token: account.token,
        body: {
          query: 'mutation($id: ID!) { revokeAccessToken(id: $id) { status } }',
          variables: { id: account.tokenId },
        },
      });
      expect(revoke.body.data.revokeAccessToken.status).toBe('REVOKED');
      const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: account.token });
      expect(response.status).toBe(401);
      const header = response.headers.get('www-authenticate') ?? '';
      expect(header).toContain(
        `resource_metadata="${app().url}/.well-known/oauth-protected-resource/api/mcp"`,
      );
      expect(header).toContain('error="invalid_token"');
      expect(response.body.error).toMatchObject({
        code: 401,
        data: { type: 'authentication_error', code: 'token_revoked' },
      });
      const asArgument = await rpc(call(2, 'get_profile', { access_token: account.token }));
      expect(asArgument.body.error).toMatchObject({ code: 401, data: { code: 'token_revoked' } });
    });
  });

  describe('discovery and docs', () => {
    it('serves a server card generated from the tool and resource tables', async () => {
      const response = await request(app().url, 'GET', '/.well-known/mcp/server-card.json');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'tributary',
        version: 'test',
        transport: { type: 'streamable-http', url: `${app().url}/api/mcp` },
        protocolVersions: expect.arrayContaining(['2025-11-25', '2024-11-05']),
        authentication: {
          type: 'bearer',
          resourceMetadata: `${app().url}/.well-known/oauth-protected-resource/api/mcp`,
        },
      });
      expect(response.body.tools).toEqual(
        expect.arrayContaining(['get_profile', 'get_pricing', 'get_credits', 'get_release_schema']),
      );
      expect(response.body.resources.map((r: { uri: string }) => r.uri)).toContain(
        'mcp://docs/metadata-rules-hitlist',
      );
    });

    it('serves the agent guide and the metadata rules as markdown, or JSON on request, without a token', async () => {
      const guide = await request(app().url, 'GET', '/api/mcp/docs');
      expect(guide.status).toBe(200);
      expect(guide.headers.get('content-type')).toContain('text/markdown');
      expect(guide.body).toMatch(/^# /);
      const guideJson = await request(app().url, 'GET', '/api/mcp/docs', {
        headers: { accept: 'application/json' },
      });
      expect(guideJson.body.markdown).toBe(guide.body);

      const rules = await request(app().url, 'GET', '/api/mcp/docs/metadata-rules');
      expect(rules.status).toBe(200);
      expect(rules.headers.get('content-type')).toContain('text/markdown');
      expect(rules.body.length).toBeGreaterThan(200);
      const rulesJson = await request(app().url, 'GET', '/api/mcp/docs/metadata-rules', {
        headers: { accept: 'application/json' },
      });
      expect(rulesJson.body).toMatchObject({ version: expect.any(String), markdown: rules.body });
      const badToken = await request(app().url, 'GET', '/api/mcp/docs', { token: 'svc_pat_wrong' });
      expect(badToken.status).toBe(401);
      expect(badToken.body).toMatchObject({ type: 'authentication_error' });
    });
  });
});
