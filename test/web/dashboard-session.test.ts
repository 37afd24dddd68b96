/**
 * The dashboard's session over HTTP: one sign-in for the settings and the dashboard, the return to the
 * page asked for (local pages only), the page's headers, and the session's dashboard token: what it can
 * do, what it cannot, and its end at sign-out.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessToken } from '../../src/domains/accounts/access-token.entity.ts';
import { revokeTokenById } from '../../src/domains/accounts/manage-tokens.ts';
import { WebSession } from '../../src/domains/accounts/web-session.entity.ts';
import { sweepOAuth } from '../../src/domains/oauth/sweep.ts';
import { useTestApp } from '../support/app.ts';
import { bootOf, signInOverHttp } from '../support/dashboard.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql } from '../support/http.ts';
import { accountWithPassword, browse, CookieJar, csrfOf } from '../support/oauth.ts';

const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('dashboard: sign-in and the page', () => {
  const app = useTestApp();

  it('sends a visitor to sign in and back to the page asked for, with one cookie for both page trees', async () => {
    const account = await accountWithPassword(app().em(), 'returns@example.com');
    const jar = new CookieJar();
    const asked = await browse(jar, `${app().url}/dashboard/credits`);
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`${app().url}/settings/sign-in?next=%2Fdashboard%2Fcredits`);
    const form = await browse(jar, asked.location!);
    expect(form.body).toContain('<title>Sign in to your dashboard · Tributary</title>');
    expect(form.body).toContain('name="next" value="/dashboard/credits"');

    const response = await fetch(`${app().url}/settings/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: csrfOf(form.body),
        next: '/dashboard/credits',
        email: account.email,
        password: account.password,
      }),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/credits');
    const session = response.headers.getSetCookie().find((c) => /^tb_session=[^;]/.test(c))!;
    expect(session).toMatch(/; Path=\/;/);
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/); // PUBLIC_URL is http here
    jar.store(response);
    // The same session opens the settings pages.
    expect((await browse(jar, `${app().url}/settings/tokens`)).status).toBe(200);
    expect((await browse(jar, `${app().url}/dashboard/credits`)).status).toBe(200);
  });

  it('never returns anywhere but a dashboard or settings page of this service', async () => {
    const account = await accountWithPassword(app().em(), 'no.open.redirect@example.com');
    const hostile = [
      '//evil.example/dashboard',
      'https://evil.example/dashboard',
      '/\\evil.example',
      '/%5Cevil.example',
      'javascript:alert(1)',
      '/dashboard/../../evil',
      '/dashboard@evil.example',
      '/settings/sign-in',
      '/v1/me',
      ' /dashboard',
      '/dashboard\n/x',
    ];
    for (const next of hostile) {
      const { location } = await signInOverHttp(app().url, account, next);
      expect(location, next).toBe(`${app().url}/settings/tokens`);
      const page = await browse(
        new CookieJar(),
        `${app().url}/settings/sign-in?${new URLSearchParams({ next })}`,
      );
      expect(page.body, next).not.toContain('name="next"');
    }
    const { location } = await signInOverHttp(app().url, account, '/dashboard/credits?page=2#top');
    expect(location).toBe(`${app().url}/dashboard/credits?page=2`);
    // A settings page asked for comes back too (a GET without a session names it).
    const jar = new CookieJar();
    expect((await browse(jar, `${app().url}/settings/webhooks`)).location).toBe(
      `${app().url}/settings/sign-in?next=%2Fsettings%2Fwebhooks`,
    );
  });

  it('answers the page with its exact policy, no cache, and a boot block holding the session token', async () => {
    const account = await accountWithPassword(app().em(), 'headers@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const page = await browse(jar, `${app().url}/dashboard/credits`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).not.toMatch(
      /<script(?![^>]*(type="module" src="\/dashboard\/assets\/|type="application\/json"))/,
    );
    expect(page.body).toMatch(
      /<script type="module" src="\/dashboard\/assets\/credits\.[a-z0-9]+\.js"><\/script>/,
    );
    expect(page.body).toContain('<noscript>');
    expect(page.body).toMatch(/<h1>Credits<\/h1>/);
    const boot = bootOf(page.body);
    expect(boot).toMatchObject({ graphqlPath: '/graphql', page: 'credits', params: {} });
    expect(boot.token).toMatch(/^svc_dst_/);

    // The next page hands out the same token; it is stored hashed, and sealed (not in clear) in the session.
    const again = bootOf((await browse(jar, `${app().url}/dashboard/credits`)).body);
    expect(again.token).toBe(boot.token);
    const record = await app()
      .em()
      .findOneOrFail(AccessToken, { tokenHash: sha256(boot.token) });
    expect(record).toMatchObject({ kind: 'dashboard', scopes: ['svc:mcp'] });
    const session = await app().em().findOneOrFail(WebSession, { dashboardToken: record.id });
    expect(session.dashboardTokenSealed).toMatch(/^v1\./);
    expect(session.dashboardTokenSealed).not.toContain(boot.token.slice(8));
    expect(record.expiresAt?.getTime()).toBe(session.expiresAt.getTime());
    expect(new Date(boot.tokenExpiresAt).getTime()).toBe(session.expiresAt.getTime());
  });

  it('an unknown dashboard path answers the not-found page; /dashboard goes to Releases', async () => {
    const account = await accountWithPassword(app().em(), 'lost@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const lost = await browse(jar, `${app().url}/dashboard/nowhere/at/all`);
    expect(lost.status).toBe(404);
    expect(lost.body).toContain('<h1>Not found</h1>');
    expect(lost.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect((await browse(jar, `${app().url}/dashboard`)).location).toBe(`${app().url}/dashboard/releases`);
  });

  it('two first pages at once hand out one token', async () => {
    const account = await accountWithPassword(app().em(), 'racing@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const pages = await Promise.all(
      Array.from({ length: 4 }, () => browse(jar, `${app().url}/dashboard/credits`)),
    );
    const tokens = new Set(pages.map((page) => bootOf(page.body).token));
    expect(tokens.size).toBe(1);
    const [token] = tokens;
    expect((await graphql(app().url, '{ me { email } }', undefined, token)).body.data?.me.email).toBe(
      account.email,
    );
  });

  it('a token revoked by an operator is replaced on the next page', async () => {
    const account = await accountWithPassword(app().em(), 'replaced@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const first = bootOf((await browse(jar, `${app().url}/dashboard/credits`)).body).token;
    const record = await app()
      .em()
      .findOneOrFail(AccessToken, { tokenHash: sha256(first) });
    await revokeTokenById(app().em(), record.id);
    await app().services.verifiedTokens.revoked(record.id);
    const second = bootOf((await browse(jar, `${app().url}/dashboard/credits`)).body).token;
    expect(second).not.toBe(first);
    expect((await graphql(app().url, '{ me { email } }', undefined, second)).status).toBe(200);
    expect((await graphql(app().url, '{ me { email } }', undefined, first)).status).toBe(401);
  });
});

describe('dashboard: what the session token can do', () => {
  const app = useTestApp();

  async function dashboardToken(email: string) {
    const account = await accountWithPassword(app().em(), email);
    const { jar } = await signInOverHttp(app().url, account);
    const page = await browse(jar, `${app().url}/dashboard/credits`);
    return { account, jar, csrf: csrfOf(page.body), token: bootOf(page.body).token };
  }

  it('works on /graphql as the account, and is not listed among its tokens', async () => {
    const { account, token } = await dashboardToken('works@example.com');
    const me = await graphql(app().url, '{ me { email } accessTokens { kind } }', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body.data?.me.email).toBe(account.email);
    expect(me.body.data?.accessTokens).toEqual([]);
  });

  it('cannot create a svc:fraud token nor score fraud; it can revoke none of the account’s tokens by guessing', async () => {
    const { token } = await dashboardToken('no.fraud@example.com');
    const escalate = await graphql(
      app().url,
      'mutation { createAccessToken(name: "escalate", scopes: [SVC_FRAUD]) { token } }',
      undefined,
      token,
    );
    expect(escalate.body.errors?.[0]?.extensions).toMatchObject({
      type: 'permission_error',
      code: 'insufficient_scope',
    });
    const score = await graphql(
      app().url,
      '{ fraudScore(email: "someone@example.com") { score } }',
      undefined,
      token,
    );
    expect(score.body.errors?.[0]?.extensions?.type).toBe('permission_error');
    // Its own record is not one of the person's tokens: revoking it by id is not found.
    const record = await app()
      .em()
      .findOneOrFail(AccessToken, { tokenHash: sha256(token) });
    const revoke = await graphql(
      app().url,
      'mutation($id: ID!) { revokeAccessToken(id: $id) { id } }',
      { id: record.id },
      token,
    );
    expect(revoke.body.errors?.[0]?.extensions?.type).toBe('not_found_error');
  });

  it('another account’s ids answer not found', async () => {
    const { token } = await dashboardToken('curious@example.com');
    const other = await accountWithToken(app().em());
    const draft = await graphql(
      app().url,
      'mutation { saveDraft(input: { release: { title: "Not yours" } }) { releaseId } }',
      undefined,
      other.token,
    );
    const releaseId = draft.body.data?.saveDraft.releaseId as string;
    const query = 'query($id: ID!) { release(id: $id) { id title } }';
    expect((await graphql(app().url, query, { id: releaseId }, other.token)).body.data?.release.title).toBe(
      'Not yours',
    );
    const foreign = await graphql(app().url, query, { id: releaseId }, token);
    expect(foreign.body.errors?.[0]?.extensions?.type).toBe('not_found_error');
    const revoke = await graphql(
      app().url,
      'mutation($id: ID!) { revokeAccessToken(id: $id) { id } }',
      { id: other.tokenId },
      token,
    );
    expect(revoke.body.errors?.[0]?.extensions?.type).toBe('not_found_error');
  });

  it('stops working at sign-out from the dashboard, which goes back to its sign-in', async () => {
    const { jar, csrf, token } = await dashboardToken('leaving@example.com');
    expect((await graphql(app().url, '{ me { email } }', undefined, token)).status).toBe(200);
    const forged = await browse(jar, `${app().url}/dashboard/sign-out`, { csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect((await graphql(app().url, '{ me { email } }', undefined, token)).status).toBe(200);

    const out = await browse(jar, `${app().url}/dashboard/sign-out`, { csrf });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${app().url}/settings/sign-in?next=%2Fdashboard`);
    // Cleared, and so is a cookie of the earlier Path=/settings a browser may still hold.
    const cleared = out.headers.getSetCookie().filter((c) => c.startsWith('tb_session=;'));
    expect(cleared.map((c) => /Path=([^;]*)/.exec(c)?.[1]).sort()).toEqual(['/', '/settings']);
    expect(cleared.every((c) => c.includes('Max-Age=0'))).toBe(true);
    const after = await graphql(app().url, '{ me { email } }', undefined, token);
    expect(after.status).toBe(401);
    expect(after.body.errors?.[0]?.extensions?.code).toBe('token_revoked');
    expect((await browse(jar, `${app().url}/dashboard/credits`)).status).toBe(303);
  });

  it('the sweep deletes dashboard tokens of sessions signed out or expired, and keeps the live one', async () => {
    const out = await dashboardToken('swept.out@example.com');
    await browse(out.jar, `${app().url}/dashboard/sign-out`, { csrf: out.csrf });
    const expired = await dashboardToken('swept.expired@example.com');
    const live = await dashboardToken('swept.live@example.com');
    const idOf = async (token: string) =>
      (
        await app()
          .em()
          .findOne(AccessToken, { tokenHash: sha256(token) })
      )?.id ?? null;
    const expiredId = await idOf(expired.token);
    await app()
      .em()
      .execute(
        `update web_sessions set expires_at = now() - interval '1 second' where dashboard_token_id = ?`,
        [expiredId],
      );
    await app()
      .em()
      .execute(`update access_tokens set expires_at = now() - interval '1 second' where id = ?`, [expiredId]);

    await sweepOAuth(app().em());
    expect(await idOf(out.token)).toBeNull();
    expect(await idOf(expired.token)).toBeNull();
    expect(await idOf(live.token)).not.toBeNull();
    expect((await graphql(app().url, '{ me { email } }', undefined, live.token)).status).toBe(200);
  });
});
