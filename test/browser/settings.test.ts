/**
 * Developer settings in headless chromium: sign in, create a personal access token and use it, revoke
 * it and see the next call fail; disconnect an OAuth app and see the agent's next call fail; add, pause,
 * inspect and delete a webhook endpoint. Screenshots of each page go to test-artefacts/.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { request } from '../support/http.ts';
import { accountWithPassword, signInAndApprove } from '../support/oauth.ts';

const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
let browser: Browser;
let page: Page;
let account: { id: string; email: string; password: string };

beforeAll(async () => {
  browser = await launchChromium();
  account = await accountWithPassword(app().em(), 'settings.owner@example.com');
  page = await browser.newPage();
  const origin = new URL(app().url).origin;
  page.on('request', (req) => {
    if (new URL(req.url()).origin !== origin) throw new Error(`a request left the service: ${req.url()}`);
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const callAgent = (token: string) =>
  request(app().url, 'POST', '/api/mcp', {
    token,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: {} } },
  });

describe('developer settings pages', () => {
  it('sends a visitor to sign in, then to the tokens page', async () => {
    await page.goto(`${app().url}/settings`);
    expect(new URL(page.url()).pathname).toBe('/settings/sign-in');
    await screenshot(page, 'settings-sign-in');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app().url}/settings/tokens`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Access tokens');
  });

  it('creates a token shown once that works, lists it, and revoking it ends it', async () => {
    await page.getByLabel('Name').fill('Release robot');
    await page.getByLabel('Expires').selectOption('30d');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.locator('#secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^svc_pat_/);
    await screenshot(page, 'settings-token-created');
    expect((await request(app().url, 'GET', '/v1/me', { token: secret })).status).toBe(200);

    await page.getByRole('link', { name: 'Done' }).click();
    const row = page.locator('tr', { hasText: 'Release robot' });
    expect(await row.textContent()).toContain('active');
    expect(await row.textContent()).toContain('svc:mcp');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'settings-tokens');

    await page.getByRole('button', { name: 'Revoke Release robot' }).click();
    await page.waitForURL(`${app().url}/settings/tokens`);
    expect(await page.locator('tr', { hasText: 'Release robot' }).textContent()).toContain('revoked');
    expect((await request(app().url, 'GET', '/v1/me', { token: secret })).status).toBe(401);
  });

  it('lists a connected agent; disconnecting it ends the agent’s access on its next call', async () => {
    const redirectUri = 'http://127.0.0.1:9/cb';
    const registered = await fetch(`${app().url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Mixing Agent',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = `${app().url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirectUri,
      scope: 'svc:mcp',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`;
    const { redirect } = await signInAndApprove(app().url, authorize, account);
    const token = await fetch(`${app().url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: new URL(redirect!).searchParams.get('code')!,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id,
      }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await callAgent(access_token)).body.result).toBeTruthy();

    await page.getByRole('link', { name: 'Connected apps' }).click();
    const row = page.locator('tr', { hasText: 'Mixing Agent' });
    expect(await row.textContent()).toContain('svc:mcp');
    await screenshot(page, 'settings-connected-apps');
    await page.getByRole('button', { name: 'Disconnect Mixing Agent' }).click();
    await page.waitForURL(`${app().url}/settings/apps`);
    expect(await page.locator('tr', { hasText: 'Mixing Agent' }).count()).toBe(0);
    expect((await callAgent(access_token)).status).toBe(401);
  });

  it('adds a webhook endpoint (secret shown once), pauses it, shows its deliveries, deletes it', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL (https)').fill('https://127.0.0.1:9/hooks/tributary');
    await page.getByLabel('Description').fill('Label backend');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect((await page.locator('#secret').textContent())?.trim().length).toBeGreaterThan(20);
    await screenshot(page, 'settings-webhook-created');
    await page.getByRole('link', { name: 'Done' }).click();
    const row = () => page.locator('tr', { hasText: 'Label backend' });
    expect(await row().textContent()).toContain('active');
    await row().getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(`${app().url}/settings/webhooks`);
    expect(await row().textContent()).toContain('paused');
    await screenshot(page, 'settings-webhooks');
    await row().getByRole('link').click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Deliveries');
    await screenshot(page, 'settings-webhook-deliveries');
    await page.getByRole('link', { name: 'All endpoints' }).click();
    await row()
      .getByRole('button', { name: /Delete/ })
      .click();
    await page.waitForURL(`${app().url}/settings/webhooks`);
    expect(await row().count()).toBe(0);
  });

  it('signs out: the settings need a new sign-in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app().url}/settings/sign-in`);
    await page.goto(`${app().url}/settings/tokens`);
    expect(new URL(page.url()).pathname).toBe('/settings/sign-in');
  });
});
