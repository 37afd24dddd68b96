/**
 * What a client may say about where its request went: `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto`
 * and an absolute-form target never move a URL the service publishes (every one comes from
 * PUBLIC_URL), and X-Forwarded-* counts only from a peer TRUST_PROXY names, for express and the
 * authorization server alike. Production-mode instances with an https PUBLIC_URL, as deployed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type RawResponse, rawRequest } from '../support/raw-http.ts';

const PUBLIC_URL = 'https://tributary.example';
const REDIRECT = 'https://agent.example/callback';

/** The ways a client names another host: the headers it sends, or the request target itself. */
const HOSTILE: { name: string; target: (path: string) => string; headers: Record<string, string> }[] = [
  { name: 'Host', target: (path) => path, headers: { host: 'evil.example' } },
  {
    name: 'X-Forwarded-Host and -Proto',
    target: (path) => path,
    headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
  },
  { name: 'an absolute-form target', target: (path) => `http://evil.example${path}`, headers: {} },
];

/** Every string in a JSON document that looks like a URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z]+:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

/** A web URL that is not a published specification's (the catalogue names its RFC's profile). */
const isOurs = (url: string) => /^https?:\/\//.test(url) && !url.includes('rfc-editor.org');

async function registerClient(app: TestApp): Promise<string> {
  const registered = await rawRequest(app.url, '/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
    body: JSON.stringify({
      client_name: 'Forwarding Agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(registered.status, registered.body).toBe(201);
  return (JSON.parse(registered.body) as { client_id: string }).client_id;
}

/** An authorization request, as a browser behind a TLS-terminating proxy would send it. */
function authorize(app: TestApp, clientId: string): Promise<RawResponse> {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid svc:mcp',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return rawRequest(app.url, `/oauth/authorize?${query}`, { headers: { 'x-forwarded-proto': 'https' } });
}

describe('forwarded headers and Host (production, https PUBLIC_URL)', () => {
  let app: TestApp;
  let distrusting: TestApp;

  beforeAll(async () => {
    [app, distrusting] = await Promise.all([
      startTestApp({ NODE_ENV: 'production', PUBLIC_URL }),
      // The test's loopback client is not the configured proxy here.
      startTestApp({ NODE_ENV: 'production', PUBLIC_URL, TRUST_PROXY: '192.0.2.10' }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([app?.close(), distrusting?.close()]);
  });

  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    for (const hostile of HOSTILE) {
      it(`${path}: issuer and every endpoint on PUBLIC_URL whatever ${hostile.name} says, cacheable`, async () => {
        const answer = await rawRequest(app.url, hostile.target(path), { headers: hostile.headers });
        expect(answer.status).toBe(200);
        const metadata = JSON.parse(answer.body) as Record<string, unknown>;
        expect(metadata.issuer).toBe(PUBLIC_URL);
        expect(metadata.authorization_endpoint).toBe(`${PUBLIC_URL}/oauth/authorize`);
        expect(metadata.token_endpoint).toBe(`${PUBLIC_URL}/oauth/token`);
        expect(metadata.registration_endpoint).toBe(`${PUBLIC_URL}/oauth/register`);
        const urls = urlsIn(metadata);
        expect(urls.length).toBeGreaterThan(5);
        for (const url of urls)
          expect(url.startsWith(`${PUBLIC_URL}/`) || url === PUBLIC_URL, url).toBe(true);
        expect(answer.body).not.toContain('evil.example');
        expect(answer.headers['cache-control']).toBe('public, max-age=300');
      });
    }
  }

  for (const path of [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/api/mcp',
    '/.well-known/mcp/server-card.json',
    '/.well-known/api-catalog',
  ]) {
    it(`${path}: every URL on PUBLIC_URL whatever the client names`, async () => {
      for (const hostile of HOSTILE) {
        const answer = await rawRequest(app.url, hostile.target(path), { headers: hostile.headers });
        expect(answer.status, hostile.name).toBe(200);
        for (const url of urlsIn(JSON.parse(answer.body)).filter(isOurs))
          expect(url.startsWith(PUBLIC_URL), `${hostile.name}: ${url}`).toBe(true);
        expect(answer.body).not.toContain('evil.example');
        expect(answer.headers['cache-control']).toBe('public, max-age=300');
      }
    });
  }

  it('the authorization server takes X-Forwarded-Proto from a trusted proxy: its Secure cookie is set', async () => {
    const clientId = await registerClient(app);
    const answer = await authorize(app, clientId);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(/^\/oauth\/interaction\//);
    const cookies = answer.headers['set-cookie'] ?? [];
    expect(
      cookies.some((cookie) => cookie.startsWith('tb_oauth_interaction=') && /; secure/i.test(cookie)),
    ).toBe(true);
  });

  it('nor express nor the authorization server believes X-Forwarded-Proto from a peer TRUST_PROXY does not name', async () => {
    const clientId = await registerClient(distrusting);
    const answer = await authorize(distrusting, clientId);
    // The request came over plain HTTP as far as the service can tell: no Secure cookie goes out on it.
    expect(answer.status).not.toBe(303);
    expect(answer.headers['set-cookie'] ?? []).toEqual([]);
  });
});
