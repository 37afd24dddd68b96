/**
 * The official MCP client connects from nothing: 401 → discovery → registration → authorization with
 * PKCE, the person signing in and approving in headless chromium → token → tools/call get_profile. Then
 * refresh rotation, and reuse of a spent refresh token ending the agent's access.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { request } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';

/** The agent's own loopback callback (RFC 8252): records where the browser came back to. */
const callbacks: string[] = [];
const callbackServer = createServer((req, res) => {
  callbacks.push(`http://127.0.0.1${req.url}`);
  res.end('You can close this window.');
});
let REDIRECT = '';

/** What an agent product keeps: its registration, its tokens, the verifier of the pending authorization. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Studio Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const app = useTestApp();
let browser: Browser;

beforeAll(async () => {
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  REDIRECT = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/mcp-callback`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  callbackServer.close();
});

describe('an MCP client connecting through OAuth', () => {
  const provider = new MemoryOAuthProvider();
  let account: { id: string; email: string; password: string };
  const mcpUrl = () => new URL(`${app().url}/api/mcp`);

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'studio-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    return client;
  }

  /** The person's part, in the browser: sign in, look at the consent page, approve. */
  async function approveInBrowser(authorizationUrl: URL): Promise<string> {
    const page = await browser.newPage();
    const origin = new URL(app().url).origin;
    const elsewhere: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.origin !== origin && !req.url().startsWith(REDIRECT)) elsewhere.push(req.url());
    });
    await page.goto(authorizationUrl.toString());
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await screenshot(page, 'oauth-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    const consent = await page.textContent('main');
    expect(consent).toContain('Studio Agent');
    expect(consent).toContain(new URL(REDIRECT).host);
    expect(consent).toContain('svc:mcp');
    await screenshot(page, 'oauth-consent');
    await Promise.all([
      page.waitForURL(`${REDIRECT}**`),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    await page.close();
    expect(elsewhere).toEqual([]);
    // The browser may also ask the callback host for /favicon.ico.
    const callback = callbacks.filter((url) => url.includes('/mcp-callback?')).at(-1);
    const code = new URL(callback ?? 'http://x/').searchParams.get('code');
    expect(code).toBeTruthy();
    return code!;
  }

  beforeAll(async () => {
    account = await accountWithPassword(app().em(), 'agent.owner@example.com');
  });

  it('goes from a 401 to a working tools/call get_profile', async () => {
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    const url = provider.authorizationUrl!;
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(mcpUrl().toString());

    const code = await approveInBrowser(url);
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved?.refresh_token).toBeTruthy();

    const client = await connect();
    const result = await client.callTool({ name: 'get_profile', arguments: {} });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ profile: { id: account.id, email: account.email } });
    await client.close();
  }, 60_000);

  it('refreshes with rotation; a spent refresh token presented again ends the access', async () => {
    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const after = provider.saved!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);

    const client = await connect();
    expect((await client.callTool({ name: 'get_profile', arguments: {} })).isError).toBeFalsy();

    const reuse = await fetch(`${app().url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before.refresh_token!,
        client_id: provider.client!.client_id,
      }),
    });
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    const me = await request(app().url, 'GET', '/v1/me', { token: after.access_token });
    expect(me.status).toBe(401);
    await client.close().catch(() => {});
  }, 60_000);

  it('disconnecting the app in the settings pages ends the agent’s access on its next call', async () => {
    provider.saved = undefined;
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    const code = await approveInBrowser(provider.authorizationUrl!);
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }).finishAuth(code);
    const client = await connect();
    expect((await client.callTool({ name: 'get_profile', arguments: {} })).isError).toBeFalsy();

    const page = await browser.newPage();
    await page.goto(`${app().url}/settings/apps`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.goto(`${app().url}/settings/apps`);
    await page.getByRole('button', { name: 'Disconnect Studio Agent' }).first().click();
    await page.waitForURL(`${app().url}/settings/apps`);
    await page.close();

    // The SDK sees the 401, tries its refresh token (gone with the grant), and gives up.
    await expect(client.callTool({ name: 'get_profile', arguments: {} })).rejects.toThrow();
    await client.close().catch(() => {});
  }, 60_000);
});
