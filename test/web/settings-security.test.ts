import { describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { useTestApp } from '../support/app.ts';
import { request } from '../support/http.ts';
import { accountWithPassword, browse, CookieJar, csrfOf } from '../support/oauth.ts';

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

  it('sets the session cookie HttpOnly, SameSite=Lax, scoped to /settings, and stores only its hash', async () => {
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
    expect(session).toMatch(/Path=\/settings/);
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
    expect(after.location).toBe(`${app().url}/settings/sign-in`);

    const second = await signedIn('expiring2@example.com');
    await app().em().execute(`update web_sessions set expires_at = now() - interval '1 second'`);
    const expired = await browse(second.jar, `${app().url}/settings/apps`);
    expect(expired.location).toBe(`${app().url}/settings/sign-in`);
  });
});
