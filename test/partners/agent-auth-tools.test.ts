import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { createPartner } from '../../src/domains/partners/manage-partners.ts';
import { useTestApp } from '../support/app.ts';
import { graphql, request } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';

const REDIRECT = 'https://agents.partner.example/cb';

describe('agent auth tools: auth_login, create_account, password_authorize without a bearer', () => {
  const app = useTestApp();

  const call = (name: string, args: Record<string, unknown>) =>
    request(app().url, 'POST', '/api/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
  const result = (answer: { body: { result: { content: { text: string }[] } } }) =>
    JSON.parse(answer.body.result.content[0]!.text);

  it('auth_login returns a token once; access_token as an argument works; it is listed and revocable', async () => {
    const account = await accountWithPassword(app().em(), 'tool-login@example.com');
    const login = await call('auth_login', { username: account.email, password: account.password });
    expect(login.status).toBe(200);
    const issued = result(login);
    expect(issued).toMatchObject({
      access_token: expect.stringMatching(/^svc_alt_/),
      token_type: 'Bearer',
      scope: 'svc:mcp',
    });
    const hours = (Date.parse(issued.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const profile = await call('get_profile', { access_token: issued.access_token });
    expect(result(profile).profile.email).toBe(account.email);

    const tokens = await graphql(app().url, '{ accessTokens { id kind name } }', {}, issued.access_token);
    const entry = tokens.body.data.accessTokens.find((t: { kind: string }) => t.kind === 'AGENT_LOGIN');
    expect(entry.name).toBe('Agent sign-in (auth_login)');
    await graphql(
      app().url,
      'mutation($id: ID!) { revokeAccessToken(id: $id) { id } }',
      { id: entry.id },
      issued.access_token,
    );
    const after = await call('get_profile', { access_token: issued.access_token });
    expect(after.body.error.data.type).toBe('authentication_error');

    const wrong = await call('auth_login', { username: account.email, password: 'not the password' });
    expect(wrong.body.error.data.code).toBe('invalid_credentials');
  });

  it('a tool that needs a token still answers 401 without one', async () => {
    const answer = await call('get_profile', {});
    expect(answer.status).toBe(401);
  });

  it('create_account and password_authorize: codes that redeem at the token endpoint', async () => {
    const partner = await createPartner(app().em(), { name: 'Agent Studio', redirectUri: REDIRECT });
    expect(partner.provenance).toBe('AGENT_STUDIO');
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const common = {
      client_id: partner.clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'svc:mcp',
      provenance: 'ignored',
    };
    const created = result(
      await call('create_account', {
        ...common,
        email: 'made-by-tool@example.com',
        password: 'a long enough passphrase',
        first_name: 'Tool',
        last_name: 'Made',
      }),
    );
    expect(created).toMatchObject({ email: 'made-by-tool@example.com', provenance: 'AGENT_STUDIO' });
    const redeem = (code: string) =>
      request(app().url, 'POST', '/v1/auth/token', {
        body: {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: REDIRECT,
          client_id: partner.clientId,
        },
      });
    const token = await redeem(created.authorization_code);
    expect(token.status).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));

    const authorized = result(
      await call('password_authorize', {
        ...common,
        email: 'made-by-tool@example.com',
        password: 'a long enough passphrase',
      }),
    );
    expect(authorized.userId).toBe(created.userId);
    expect((await redeem(authorized.authorization_code)).status).toBe(200);

    const weak = await call('create_account', {
      ...common,
      email: 'weak-tool@example.com',
      password: 'aaaaaaaaaaaa',
    });
    expect(weak.body.error.data).toMatchObject({ code: 'weak_password' });
    expect(weak.body.error.message).toContain('too repetitive');
  });
});
