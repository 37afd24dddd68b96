import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { useTestApp } from '../support/app.ts';
import { graphql, request } from '../support/http.ts';
import {
  accountWithPassword,
  postTokenForm,
  redeemCode,
  refreshWith,
  signInAndApprove,
} from '../support/oauth.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('the authorization server (oauth4webapi)', () => {
  const app = useTestApp();
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let account: { id: string; email: string; password: string };
  let resource: string;

  beforeAll(async () => {
    account = await accountWithPassword(app().em(), 'olive@example.com');
    resource = `${app().url}/api/mcp`;
    const issuer = new URL(app().url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'Test Agent',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        insecure,
      ),
    );
  });

  /** The authorization endpoint asked for an svc:mcp code for the test client, with `params` besides. */
  function authorizationUrl(params: Record<string, string>): URL {
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'svc:mcp',
      ...params,
    }).toString();
    return url;
  }

  /** Runs the browser part and returns the code's parameters and verifier. */
  async function authorize(extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = authorizationUrl({
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource,
      ...extra,
    });
    const { redirect, last } = await signInAndApprove(app().url, url.toString(), account);
    return { redirect, last, verifier, state };
  }

  async function exchange(tokenEndpoint?: string) {
    const { redirect, verifier, state } = await authorize();
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    const target = tokenEndpoint ? { ...as, token_endpoint: tokenEndpoint } : as;
    const params = oauth.validateAuthResponse(target, client, new URL(redirect!), state);
    const response = await oauth.authorizationCodeGrantRequest(
      target,
      client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      { ...insecure, additionalParameters: { resource } },
    );
    return oauth.processAuthorizationCodeResponse(target, client, response);
  }

  it('publishes RFC 8414 and OpenID discovery with S256 only and the /oauth endpoints', async () => {
    expect(as).toMatchObject({
      issuer: app().url,
      authorization_endpoint: `${app().url}/oauth/authorize`,
      token_endpoint: `${app().url}/oauth/token`,
      registration_endpoint: `${app().url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    const openid = await request(app().url, 'GET', '/.well-known/openid-configuration');
    expect(openid.status).toBe(200);
    expect(openid.body.issuer).toBe(app().url);
  });

  it('points the protected resource metadata of / and /api/mcp at this server with svc:mcp', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/mcp',
    ]) {
      const { body } = await request(app().url, 'GET', path);
      expect(body).toMatchObject({
        resource,
        authorization_servers: [app().url],
        scopes_supported: ['svc:mcp'],
      });
    }
  });

  it('lists the REST API and the MCP endpoint in the RFC 9727 API catalog', async () => {
    const catalog = await request(app().url, 'GET', '/.well-known/api-catalog');
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('content-type')).toContain('application/linkset+json');
    const body = catalog.body as { linkset: { anchor: string }[] };
    expect(body.linkset.map((entry: { anchor: string }) => entry.anchor)).toEqual([
      `${app().url}/v1`,
      resource,
    ]);
  });

  it('completes code + PKCE, and the access token works on /api/mcp and /v1 as the account', async () => {
    const tokens = await exchange();
    expect(tokens).toMatchObject({ token_type: expect.stringMatching(/bearer/i), scope: 'svc:mcp' });
    expect(tokens.refresh_token).toBeTruthy();
    const me = await request(app().url, 'GET', '/v1/me', { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.profile.id).toBe(account.id);
    const call = await request(app().url, 'POST', '/api/mcp', {
      token: tokens.access_token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: {} } },
    });
    expect(call.status).toBe(200);
    expect(JSON.parse(call.body.result.content[0].text)).toMatchObject({
      profile: { email: account.email },
    });
  });

  it('rotates the refresh token on every use; reusing an old one revokes the grant', async () => {
    const first = await exchange();
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure),
    );
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await request(app().url, 'GET', '/v1/me', { token: second.access_token })).status).toBe(200);

    const reuse = await refreshWith(as.token_endpoint!, first.refresh_token!, client.client_id);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    // The whole grant is gone: its access tokens and its newest refresh token.
    expect((await request(app().url, 'GET', '/v1/me', { token: second.access_token })).status).toBe(401);
    const newest = await refreshWith(as.token_endpoint!, second.refresh_token!, client.client_id);
    expect(newest.status).toBe(400);
  });

  it('documents POST /v1/auth/token in the OpenAPI document and the API index', async () => {
    const openapi = await request(app().url, 'GET', '/v1/openapi.json');
    expect(openapi.body.paths['/auth/token'].post).toMatchObject({
      operationId: 'exchangeToken',
      security: [],
    });
    const index = await request(app().url, 'GET', '/v1/');
    expect(index.body.endpoints).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/v1/auth/token', auth: 'public' }),
    );
  });

  it('serves the same grants at POST /v1/auth/token, errors in the REST envelope', async () => {
    const tokens = await exchange(`${app().url}/v1/auth/token`);
    expect((await request(app().url, 'GET', '/v1/me', { token: tokens.access_token })).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        { ...as, token_endpoint: `${app().url}/v1/auth/token` },
        client,
        oauth.None(),
        tokens.refresh_token!,
        insecure,
      ),
    );
    expect(refreshed.access_token).toBeTruthy();

    const bad = await redeemCode(`${app().url}/v1/auth/token`, {
      code: 'not-a-code',
      verifier: oauth.generateRandomCodeVerifier(),
      redirectUri: REDIRECT,
      clientId: client.client_id,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      type: 'oauth_error',
      code: 'invalid_grant',
      message: expect.any(String),
    });
    const json = await request(app().url, 'POST', '/v1/auth/token', {
      body: {
        grant_type: 'refresh_token',
        refresh_token: refreshed.refresh_token,
        client_id: client.client_id,
      },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ token_type: 'Bearer', scope: 'svc:mcp' });
    const badJson = await request(app().url, 'POST', '/v1/auth/token', { body: { grant_type: 1 } });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatchObject({ type: 'oauth_error', code: 'invalid_request' });
    const notJson = await request(app().url, 'POST', '/v1/auth/token', { rawBody: '{"grant_type":' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ type: 'oauth_error', code: 'invalid_request' });
    const unknownClient = await postTokenForm(`${app().url}/v1/auth/token`, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'nobody',
    });
    expect(unknownClient.status).toBe(401);
    expect(await unknownClient.json()).toMatchObject({ type: 'oauth_error', code: 'invalid_client' });
  });

  describe('refusals', () => {
    async function redeem(code: string, verifier: string, redirectUri = REDIRECT) {
      const response = await redeemCode(as.token_endpoint!, {
        code,
        verifier,
        redirectUri,
        clientId: client.client_id,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }
    const codeOf = (redirect: string | null) => new URL(redirect!).searchParams.get('code')!;

    it('a reused code is invalid_grant', async () => {
      const { redirect, verifier } = await authorize();
      expect((await redeem(codeOf(redirect), verifier)).status).toBe(200);
      expect(await redeem(codeOf(redirect), verifier)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('a wrong verifier is invalid_grant', async () => {
      const { redirect } = await authorize();
      const wrong = oauth.generateRandomCodeVerifier();
      expect(await redeem(codeOf(redirect), wrong)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('an expired code is invalid_grant', async () => {
      const { redirect, verifier } = await authorize();
      await app()
        .em()
        .execute(
          `update oauth_models set expires_at = now() - interval '1 second' where kind = 'AuthorizationCode'`,
        );
      expect(await redeem(codeOf(redirect), verifier)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('a redirect URI differing by one character is refused at the authorization and token endpoints', async () => {
      const { redirect: none, last } = await authorize({ redirect_uri: `${REDIRECT.slice(0, -1)}K` });
      expect(none).toBeNull();
      expect(last.status).toBe(400);
      expect(last.body).toContain('invalid_redirect_uri');

      const { redirect, verifier } = await authorize();
      expect(await redeem(codeOf(redirect), verifier, `${REDIRECT}/`)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('plain PKCE and a missing challenge are refused', async () => {
      const plain = await authorize({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
      expect(new URL(plain.redirect!).searchParams.get('error')).toBe('invalid_request');
      const missing = await fetch(authorizationUrl({}), { redirect: 'manual' });
      expect(new URL(missing.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    });

    it('a resource other than the MCP endpoint is invalid_target', async () => {
      const { redirect } = await authorize({ resource: 'https://elsewhere.example/api' });
      expect(new URL(redirect!).searchParams.get('error')).toBe('invalid_target');
    });

    it('an OAuth token issued for another audience is refused by /api/mcp and /v1', async () => {
      const em = app().em();
      const { token, record } = await issueToken(em, {
        accountId: account.id,
        name: 'elsewhere',
        scopes: ['svc:mcp'],
        expires: '30d',
        kind: 'oauth',
      });
      await em.execute(
        `update access_tokens set audience = 'https://elsewhere.example/api/mcp' where id = ?`,
        [record.id],
      );
      const me = await request(app().url, 'GET', '/v1/me', { token });
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({ type: 'authentication_error', code: 'invalid_audience' });
      const call = await request(app().url, 'POST', '/api/mcp', {
        token,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: {} } },
      });
      expect(call.status).toBe(401);
      expect(call.headers.get('www-authenticate')).toContain('resource_metadata=');
    });

    it('revoking the refresh token revokes the grant and its access tokens at once', async () => {
      const tokens = await exchange();
      expect((await request(app().url, 'GET', '/v1/me', { token: tokens.access_token })).status).toBe(200);
      const revoked = await oauth.revocationRequest(
        as,
        client,
        oauth.None(),
        tokens.refresh_token!,
        insecure,
      );
      await oauth.processRevocationResponse(revoked);
      expect((await request(app().url, 'GET', '/v1/me', { token: tokens.access_token })).status).toBe(401);
    });
  });

  it('lists the approved app in connectedApps; disconnectApp ends its access at once', async () => {
    const tokens = await exchange();
    const pat = (
      await issueToken(app().em(), {
        accountId: account.id,
        name: 'settings',
        scopes: ['svc:mcp'],
        expires: '30d',
      })
    ).token;
    const listed = await graphql(
      app().url,
      '{ connectedApps { id clientId name scopes connectedAt lastUsedAt } }',
      {},
      pat,
    );
    const mine = listed.body.data.connectedApps.filter(
      (each: { clientId: string }) => each.clientId === client.client_id,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ name: 'Test Agent', scopes: ['svc:mcp'] });
    expect(Date.parse(mine[0].connectedAt)).toBeGreaterThan(Date.now() - 600_000);

    const other = await accountWithPassword(app().em(), 'someone.else@example.com');
    const otherPat = (
      await issueToken(app().em(), { accountId: other.id, name: 'x', scopes: ['svc:mcp'], expires: '30d' })
    ).token;
    const foreign = await graphql(
      app().url,
      'mutation($id: ID!) { disconnectApp(id: $id) { id } }',
      { id: mine[0].id },
      otherPat,
    );
    expect(foreign.body.errors?.[0]?.extensions).toMatchObject({ code: 'connected_app_not_found' });

    for (const each of mine) {
      const done = await graphql(
        app().url,
        'mutation($id: ID!) { disconnectApp(id: $id) { id disconnected } }',
        { id: each.id },
        pat,
      );
      expect(done.body.data.disconnectApp).toEqual({ id: each.id, disconnected: true });
    }
    expect((await request(app().url, 'GET', '/v1/me', { token: tokens.access_token })).status).toBe(401);
    const refresh = await refreshWith(as.token_endpoint!, tokens.refresh_token!, client.client_id);
    expect(refresh.status).toBe(400);
  });

  it('stores no code, token or client secret in clear, and sweeps expired rows', async () => {
    const tokens = await exchange();
    const confidential = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'Server Agent',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        insecure,
      ),
    );
    const secret = String(confidential.client_secret);
    expect(secret.length).toBeGreaterThan(20);
    const rows = await app().em().execute<{ payload: unknown }[]>(`select payload from oauth_models`);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token!);
    expect(dump).not.toContain(secret);
    // The sealed secret still authenticates the client (the bad code is then the only fault).
    const withSecret = (value: string) =>
      postTokenForm(
        as.token_endpoint!,
        { grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECT },
        { authorization: `Basic ${Buffer.from(`${confidential.client_id}:${value}`).toString('base64')}` },
      ).then(async (r) => ((await r.json()) as { error: string }).error);
    expect(await withSecret(secret)).toBe('invalid_grant');
    expect(await withSecret(`${secret}x`)).toBe('invalid_client');
    const { sweepOAuth } = await import('../../src/domains/oauth/sweep.ts');
    await app()
      .em()
      .execute(
        `update oauth_models set expires_at = now() - interval '1 second' where kind in ('Session', 'Interaction')`,
      );
    const swept = await sweepOAuth(app().em());
    expect(swept.models).toBeGreaterThan(0);
    const [left] = await app()
      .em()
      .execute<{ n: string }[]>(`select count(*) as n from oauth_models where expires_at <= now()`);
    expect(Number(left!.n)).toBe(0);
  });
});
