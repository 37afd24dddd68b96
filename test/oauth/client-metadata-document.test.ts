import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachingLoopback, startTestApp, type TestApp } from '../support/app.ts';
import { request } from '../support/http.ts';
import { startHttpsReceiver } from '../support/https-receiver.ts';
import { accountWithPassword, redeemCode, signInAndApprove } from '../support/oauth.ts';

const REDIRECT = 'http://127.0.0.1:9/cimd-callback';
/** A client ID that redirects to a document naming it: valid only if the redirect were followed. */
const MOVED = '/agents/moved.json';
const MOVED_TO = '/agents/moved-to.json';

/**
 * A client registered by URL (client ID metadata document): the authorization server fetches the
 * document through the SSRF-guarded outbound client, so loopback is reached only where private
 * addresses are allowed (the test's setting), and refused by default.
 */
describe('clients identified by a metadata document URL (CIMD)', () => {
  let documents: Awaited<ReturnType<typeof startHttpsReceiver>>;
  let clientId = '';

  beforeAll(async () => {
    documents = await startHttpsReceiver(
      (pathname) => (pathname === MOVED ? 302 : 200),
      (pathname): Record<string, string> =>
        pathname === MOVED
          ? { location: documents.url(MOVED_TO) }
          : { 'content-type': 'application/json', 'cache-control': 'max-age=600' },
      (pathname) =>
        JSON.stringify({
          client_id: pathname === MOVED_TO ? documents.url(MOVED) : clientId,
          client_name: 'Metadata Agent',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
    );
    clientId = documents.url('/agents/metadata.json');
  });
  afterAll(() => documents.close());

  const flow = async (app: TestApp, email: string, id = clientId) => {
    const account = await accountWithPassword(app.em(), email);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = `${app.url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: id,
      redirect_uri: REDIRECT,
      scope: 'svc:mcp',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`;
    return { verifier, ...(await signInAndApprove(app.url, authorize, account)) };
  };

  describe('with private addresses allowed', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(...reachingLoopback(documents.cert));
    });
    afterAll(() => app?.close());

    it('completes the flow, and its access token works on /v1', async () => {
      const { redirect, verifier } = await flow(app, 'cimd@example.com');
      expect(documents.hits.length).toBeGreaterThan(0);
      const code = new URL(redirect!).searchParams.get('code')!;
      const token = await redeemCode(`${app.url}/oauth/token`, {
        code,
        verifier,
        redirectUri: REDIRECT,
        clientId,
      });
      const body = (await token.json()) as { access_token: string; refresh_token: string };
      expect(token.status).toBe(200);
      expect(body.refresh_token).toBeTruthy();
      const me = await request(app.url, 'GET', '/v1/me', { token: body.access_token });
      expect(me.body.profile.email).toBe('cimd@example.com');
    });

    it('does not follow a redirect from the client ID URL: the 3xx is the answer, and it is refused', async () => {
      const { redirect, last } = await flow(app, 'cimd.moved@example.com', documents.url(MOVED));
      expect(redirect).toBeNull();
      expect(last.status).toBe(400);
      expect(last.body).toContain('invalid_client');
      expect(documents.hits.some((hit) => hit.path === MOVED)).toBe(true);
      expect(documents.hits.some((hit) => hit.path === MOVED_TO)).toBe(false);
    });
  });

  describe('in the default setting', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(() => app?.close());

    it('refuses a metadata document on a private address without fetching it', async () => {
      const before = documents.hits.length;
      const { redirect, last } = await flow(app, 'cimd.default@example.com');
      expect(redirect).toBeNull();
      expect(last.status).toBe(400);
      expect(last.body).toContain('invalid_client');
      expect(documents.hits.length).toBe(before);
    });
  });
});
