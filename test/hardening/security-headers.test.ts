/**
 * `X-Content-Type-Options: nosniff` on every kind of answer, and on every HTML page the headers our
 * pages carry: a Content-Security-Policy that refuses framing, X-Frame-Options and Referrer-Policy.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { accountWithPassword, browse, CookieJar, signInAndApprove } from '../support/oauth.ts';
import { rawRequest } from '../support/raw-http.ts';
import { uploadAssets } from '../support/releases.ts';

const app = useTestApp();
const REDIRECT = 'http://127.0.0.1:9/callback';

/** A GET or POST, with the answer's headers, body read and dropped; redirects not followed. */
async function answer(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${app().url}${path}`, { redirect: 'manual', ...init });
  await response.arrayBuffer();
  return response;
}

function expectPageHeaders(response: Response, framing: 'DENY' | 'SAMEORIGIN' = 'DENY'): void {
  const policy = response.headers.get('content-security-policy') ?? '';
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain(`frame-ancestors ${framing === 'DENY' ? "'none'" : "'self'"}`);
  expect(response.headers.get('x-frame-options')).toBe(framing);
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('security headers', () => {
  let account: AccountFixture;
  beforeAll(async () => {
    account = await accountWithToken(app().em(), { credits: 5 });
  });
  const bearer = () => ({ authorization: `Bearer ${account.token}` });

  it('nosniff on API answers, errors, documents and assets of every surface', async () => {
    const answers: [string, Response][] = [
      ['REST row', await answer('/v1/me', { headers: bearer() })],
      ['REST 401', await answer('/v1/me')],
      [
        'REST bad body',
        await answer('/v1/releases', {
          method: 'POST',
          headers: { ...bearer(), 'content-type': 'application/json' },
          body: '{',
        }),
      ],
      ['no such route', await answer('/nowhere')],
      [
        'GraphQL',
        await answer('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
      ],
      [
        'MCP 401',
        await answer('/api/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        }),
      ],
      ['OAuth discovery', await answer('/.well-known/oauth-authorization-server')],
      [
        'OAuth token error',
        await answer('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=nonsense',
        }),
      ],
      ['resource metadata', await answer('/.well-known/oauth-protected-resource')],
      ['stylesheet', await answer('/assets/site.css')],
      ['OpenAPI', await answer('/v1/openapi.json')],
    ];
    for (const [name, response] of answers) {
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
    }
  });

  it('nosniff on a signed download and the redirect to it', async () => {
    const { coverUrl } = await uploadAssets(app().url, account);
    const path = new URL(coverUrl, app().url).pathname;
    const redirect = await answer(path, { headers: bearer() });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    const signed = new URL(redirect.headers.get('location') ?? '', app().url);
    const download = await answer(`${signed.pathname}${signed.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const forged = await answer(`${signed.pathname}?expires=1&sig=x`);
    expect(forged.status).toBe(404);
    expect(forged.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("the authorization server's error page: our pages' policy, no framing, no referrer, not stored", async () => {
    const error = await answer('/oauth/authorize?client_id=nobody&response_type=code');
    expect(error.status).toBe(400);
    expect(error.headers.get('content-type')).toMatch(/^text\/html/);
    expectPageHeaders(error);
    expect(error.headers.get('cache-control')).toBe('no-store');
  });

  it('its self-submitting forms (form_post) run their one script by hash, nothing else', async () => {
    // Signing out without a session: the provider answers with a form that posts itself.
    const form = await rawRequest(app().url, '/oauth/logout');
    expect(form.status).toBe(200);
    const script = /<script>([\s\S]*?)<\/script>/.exec(form.body)?.[1] ?? '';
    expect(script).toContain('submit()');
    const hash = createHash('sha256').update(script).digest('base64');
    const headers = new Headers(form.headers as Record<string, string>);
    expect(headers.get('content-security-policy')).toContain(`script-src 'sha256-${hash}'`);
    expectPageHeaders(new Response(null, { headers }));
  });

  it('its sign-out question: in our layout (no web font, no inline style), under the same headers', async () => {
    const person = await accountWithPassword(app().em(), 'sign-out@example.com');
    const registered = await request(app().url, 'POST', '/oauth/register', {
      body: {
        client_name: 'Signing-out Agent',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      },
    });
    expect(registered.status).toBe(201);
    const start = `${app().url}/oauth/authorize?${new URLSearchParams({
      client_id: registered.body.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid svc:mcp',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;
    const jar = new CookieJar();
    const { redirect } = await signInAndApprove(app().url, start, person, { jar });
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
    const question = await browse(jar, `${app().url}/oauth/logout`);
    expect(question.status).toBe(200);
    expect(question.body).toContain('/assets/site.css');
    expect(question.body).toContain('form="op.logoutForm"');
    expect(question.body).not.toContain('fonts.googleapis.com');
    expect(question.body).not.toContain('<style>');
    expectPageHeaders(new Response(null, { headers: question.headers }));
  });

  it('the sign-in page and the REST reference', async () => {
    expectPageHeaders(await answer('/settings/sign-in'));
    expectPageHeaders(await answer('/v1/docs'));
  });

  it('the sandbox checkout page: framed only by our own pages (the embedded checkout)', async () => {
    const opened = await request(app().url, 'POST', '/v1/credits/checkout', {
      token: account.token,
      body: { credits: 3, ui_mode: 'hosted' },
    });
    expect(opened.body.url).toMatch(/\/sandbox\/checkout\//);
    expectPageHeaders(await answer(new URL(opened.body.url).pathname), 'SAMEORIGIN');
  });
});
