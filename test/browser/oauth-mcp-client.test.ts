/**
 * The official MCP client connects from nothing: 401 → discovery → registration → authorization with
 * PKCE, the person signing in and approving in headless chromium → token → tools/call get_profile. Then
 * refresh rotation, reuse of a spent refresh token ending the agent's access, disconnection from the
 * settings page doing the same, and a client identified by a metadata document URL (CIMD) on loopback.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachingLoopback, useTestApp } from '../support/app.ts';
import { screenshot, useChromium } from '../support/browser.ts';
import { request } from '../support/http.ts';
import { startHttpsReceiver } from '../support/https-receiver.ts';
import { MemoryOAuthProvider } from '../support/mcp-oauth.ts';
import { accountWithPassword } from '../support/oauth.ts';

/** The agent's own loopback callback (RFC 8252): records where the browser came back to. */
const callbacks: string[] = [];
const callbackServer = createServer((req, res) => {
  callbacks.push(`http://127.0.0.1${req.url}`);
  res.end('You can close this window.');
});
await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
const REDIRECT = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/mcp-callback`;

/** Where a CIMD client's metadata document lives (https on loopback, a throwaway certificate). */
const documents = await startHttpsReceiver(
  () => 200,
  () => ({ 'content-type': 'application/json' }),
  () =>
    JSON.stringify({
      client_id: documents.url('/studio/client.json'),
      client_name: 'Studio Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
);

// Loopback documents are reachable only with private addresses allowed (the test's setting).
const app = useTestApp(...reachingLoopback(documents.cert));
const browser = useChromium();

afterAll(async () => {
  callbackServer.close();
  await documents.close();
});

describe('an MCP client connecting through OAuth', () => {
  const provider = new MemoryOAuthProvider(() => REDIRECT);
  let account: { id: string; email: string; password: string };
  const mcpUrl = () => new URL(`${app().url}/api/mcp`);

  async function connect(authProvider = provider): Promise<Client> {
    const client = new Client({ name: 'studio-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider }));
    return client;
  }

  /** The person's part, in the browser: sign in, look at the consent page, approve. */
  async function approveInBrowser(authorizationUrl: URL): Promise<string> {
    const page = await browser().newPage();
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

    const page = await browser().newPage();
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

  it('connects a client identified by its metadata document URL (CIMD), without registering', async () => {
    const cimd = new MemoryOAuthProvider(() => REDIRECT, documents.url('/studio/client.json'));
    await expect(connect(cimd)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(cimd.authorizationUrl?.searchParams.get('client_id')).toBe(documents.url('/studio/client.json'));
    expect(cimd.client?.client_id).toBe(documents.url('/studio/client.json'));
    // The authorization server fetches the document when the browser arrives.
    const code = await approveInBrowser(cimd.authorizationUrl!);
    expect(documents.hits.length).toBeGreaterThan(0);
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: cimd }).finishAuth(code);
    const client = await connect(cimd);
    const result = await client.callTool({ name: 'get_profile', arguments: {} });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ profile: { email: account.email } });
    await client.close();
  }, 60_000);
});
