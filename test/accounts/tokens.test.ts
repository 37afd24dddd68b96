import { describe, expect, it } from 'vitest';
import { AccessToken } from '../../src/domains/accounts/access-token.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('personal access tokens', () => {
  const app = useTestApp();

  it('stores no usable secret: only the SHA-256 of the token', async () => {
    const account = await accountWithToken(app().em());
    expect(account.token).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/);
    const rows = await app()
      .em()
      .getConnection()
      .execute('select * from access_tokens where id = ?', [account.tokenId]);
    const serialised = JSON.stringify(rows);
    expect(serialised).not.toContain(account.token);
    expect(serialised).not.toContain(account.token.slice(8));
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const ok = await request(app().url, 'GET', '/v1/me', { token: account.token });
    expect(ok.status).toBe(200);
    const withHash = await request(app().url, 'GET', '/v1/me', { token: String(rows[0]?.token_hash) });
    expect(withHash.status).toBe(401);
  });

  it('fails on the very next request after revocation', async () => {
    const account = await accountWithToken(app().em());
    expect((await request(app().url, 'GET', '/v1/me', { token: account.token })).status).toBe(200);
    const revoke = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: {
        query: 'mutation($id: ID!) { revokeAccessToken(id: $id) { status revokedAt } }',
        variables: { id: account.tokenId },
      },
    });
    expect(revoke.body.data.revokeAccessToken.status).toBe('REVOKED');
    const after = await request(app().url, 'GET', '/v1/me', { token: account.token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ type: 'authentication_error', code: 'token_revoked' });
  });

  it('rejects an expired token with 401', async () => {
    const account = await accountWithToken(app().em(), { expires: '30d' });
    await app()
      .em()
      .nativeUpdate(AccessToken, { id: account.tokenId }, { expiresAt: new Date(Date.now() - 1000) });
    const response = await request(app().url, 'GET', '/v1/me', { token: account.token });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ type: 'authentication_error', code: 'token_expired' });
  });

  it('records the last-used date', async () => {
    const account = await accountWithToken(app().em());
    await request(app().url, 'GET', '/v1/me', { token: account.token });
    const token = await app().em().findOneOrFail(AccessToken, { id: account.tokenId });
    expect(token.lastUsedAt).toBeInstanceOf(Date);
  });

  it('creates tokens with an expiry and never grants a scope the caller lacks', async () => {
    const account = await accountWithToken(app().em());
    const created = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: {
        query:
          'mutation { createAccessToken(name: "ci", expires: EXPIRES_90D) { token accessToken { scopes expiresAt status } } }',
      },
    });
    const { token, accessToken } = created.body.data.createAccessToken;
    expect(token).toMatch(/^svc_pat_/);
    expect(accessToken.scopes).toEqual(['svc:mcp']);
    const days = (new Date(accessToken.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThan(91);
    const escalate = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: { query: 'mutation { createAccessToken(name: "x", scopes: [SVC_FRAUD]) { token } }' },
    });
    expect(escalate.body.errors[0].extensions).toMatchObject({
      type: 'permission_error',
      code: 'insufficient_scope',
    });
  });
});
