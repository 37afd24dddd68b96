import { describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { useTestApp } from '../support/app.ts';
import { request } from '../support/http.ts';
import { accountWithPassword, browse, CookieJar, csrfOf, signInAndApprove } from '../support/oauth.ts';

describe('developer settings: sessions and CSRF', () => {
  const app = useTestApp();

  async function signedIn(email: string) {
    const account = await accountWithPassword(app().em(), email);
    const jar = new CookieJar();
    const form = await browse(jar, `${app().url}/settings/sign-in`);
    const done = await browse(jar, `${app().url}/settings/sign-in`, {
      csrf: csrfOf(form.body),
      email: account.email,
      password: account.password,
    });
    expect(done.status).toBe(303);
    const tokens = await browse(jar, `${app().url}/settings/tokens`);
    expect(tokens.status).toBe(200);
    return { account, jar, csrf: csrfOf(tokens.body) };
  }

  it('sets the session cookie HttpOnly, SameSite=Lax, for the settings and the dashboard, and stores only its hash', async () => {
    const account = await accountWithPassword(app().em(), 'cookie@example.com');
    const jar = new CookieJar();
    const form = await browse(jar, `${app().url}/settings/sign-in`);
    const response = await fetch(`${app().url}/settings/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: csrfOf(form.body),
        email: account.email,
        password: account.password,
      }),
    });
    const session = response.headers.getSetCookie().find((c) => c.startsWith('tb_session='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/; Path=\/;/);
    const secret = decodeURIComponent(session.split(';')[0]!.slice('tb_session='.length));
    const rows = await app().em().execute<{ token_hash: string }[]>('select token_hash from web_sessions');
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('refuses a sign-in post without the form’s cookie, and a settings post without the CSRF field', async () => {
    const account = await accountWithPassword(app().em(), 'nocookie@example.com');
    const blind = await browse(new CookieJar(), `${app().url}/settings/sign-in`, {
      csrf: 'guessed',
      email: account.email,
      password: account.password,
    });
    expect(blind.status).toBe(403);

    const { jar, csrf } = await signedIn('csrf.settings@example.com');
    const forged = await browse(jar, `${app().url}/settings/tokens`, { name: 'forged', expires: '30d' });
    expect(forged.status).toBe(403);
    const made = await browse(jar, `${app().url}/settings/tokens`, { csrf, name: 'real', expires: '30d' });
    expect(made.status).toBe(201);
    const list = await browse(jar, `${app().url}/settings/tokens`);
    expect(list.body).toContain('real');
    expect(list.body).not.toContain('forged');
  });

  it('cannot revoke another account’s token from its own session', async () => {
    const { jar, csrf } = await signedIn('owner.a@example.com');
    const other = await accountWithPassword(app().em(), 'owner.b@example.com');
    const { token, record } = await issueToken(app().em(), {
      accountId: other.id,
      name: 'b',
      scopes: ['svc:mcp'],
      expires: '30d',
    });
    const attempt = await browse(jar, `${app().url}/settings/tokens/${record.id}/revoke`, { csrf });
    expect(attempt.status).toBe(404);
    expect((await request(app().url, 'GET', '/v1/me', { token })).status).toBe(200);
  });

  it('an expired or signed-out session goes back to sign-in', async () => {
    const { jar, csrf } = await signedIn('expiring@example.com');
    await browse(jar, `${app().url}/settings/sign-out`, { csrf });
    const after = await browse(jar, `${app().url}/settings/tokens`);
    expect(after.status).toBe(303);
    expect(after.location).toBe(`${app().url}/settings/sign-in?next=%2Fsettings%2Ftokens`);

    const second = await signedIn('expiring2@example.com');
    await app().em().execute(`update web_sessions set expires_at = now() - interval '1 second'`);
    const expired = await browse(second.jar, `${app().url}/settings/apps`);
    expect(expired.location).toBe(`${app().url}/settings/sign-in?next=%2Fsettings%2Fapps`);
  });
});

describe('developer settings: another account’s apps and webhooks', () => {
  const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });

  it('disconnecting, pausing or deleting by another account’s id is 404 and changes nothing', async () => {
    const other = await accountWithPassword(app().em(), 'grantor@example.com');
    const registered = await fetch(`${app().url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Foreign Agent',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const approved = await signInAndApprove(
      app().url,
      `${app().url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: 'http://127.0.0.1:9/cb',
        scope: 'svc:mcp',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      other,
    );
    expect(new URL(approved.redirect!).searchParams.get('code')).toBeTruthy();
    const grants = () =>
      app()
        .em()
        .execute<{ grant_id: string }[]>(
          `select grant_id from oauth_models where kind = 'Grant' and account_id = ?`,
          [other.id],
        );
    const [grant] = await grants();
    expect(grant).toBeDefined();
    const otherToken = (
      await issueToken(app().em(), { accountId: other.id, name: 'o', scopes: ['svc:mcp'], expires: '30d' })
    ).token;
    const hook = await request(app().url, 'POST', '/v1/webhooks', {
      token: otherToken,
      body: { url: 'https://127.0.0.1:9/hook' },
    });
    expect(hook.status).toBe(201);
    const hookId = hook.body.endpoint.id as string;

    const account = await accountWithPassword(app().em(), 'intruder@example.com');
    const jar = new CookieJar();
    const form = await browse(jar, `${app().url}/settings/sign-in`);
    await browse(jar, `${app().url}/settings/sign-in`, {
      csrf: csrfOf(form.body),
      email: account.email,
      password: account.password,
    });
    const csrf = csrfOf((await browse(jar, `${app().url}/settings/apps`)).body);
    const disconnect = await browse(jar, `${app().url}/settings/apps/${grant!.grant_id}/disconnect`, {
      csrf,
    });
    expect(disconnect.status).toBe(404);
    expect(await grants()).toHaveLength(1);
    for (const action of ['pause', 'delete']) {
      const attempt = await browse(jar, `${app().url}/settings/webhooks/${hookId}/${action}`, { csrf });
      expect(attempt.status).toBe(404);
    }
    expect((await browse(jar, `${app().url}/settings/webhooks/${hookId}`)).status).toBe(404);
    const still = await request(app().url, 'GET', '/v1/webhooks', { token: otherToken });
    expect(still.body.webhooks).toMatchObject([{ id: hookId, active: true }]);
  });
});

describe('developer settings behind https', () => {
  const app = useTestApp({ PUBLIC_URL: 'https://settings.example' });

  it('marks the session and sign-in form cookies Secure', async () => {
    const account = await accountWithPassword(app().em(), 'secure@example.com');
    const jar = new CookieJar();
    const form = await fetch(`${app().url}/settings/sign-in`);
    const formCookie = form.headers.getSetCookie().find((c) => c.startsWith('tb_signin_csrf='))!;
    expect(formCookie).toMatch(/; Secure/);
    jar.store(form);
    const response = await fetch(`${app().url}/settings/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: csrfOf(await form.text()),
        email: account.email,
        password: account.password,
      }),
    });
    expect(response.status).toBe(303);
    const session = response.headers.getSetCookie().find((c) => c.startsWith('tb_session='))!;
    expect(session).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
  });
});
