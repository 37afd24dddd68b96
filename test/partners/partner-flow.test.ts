import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { createPartner } from '../../src/domains/partners/manage-partners.ts';
import { PARTNER_CALLS_PER_IP } from '../../src/domains/partners/provision.ts';
import { budgetsOnly } from '../rate-limits/support.ts';
import { useTestApp } from '../support/app.ts';
import { graphql, request } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'https://studio.partner.example/callback';
const PASSWORD = 'a long enough passphrase';

describe('partner server-to-server flow', () => {
  const app = useTestApp();
  let clientId: string;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    const partner = await createPartner(app().em(), {
      name: 'Beat Lab',
      redirectUri: REDIRECT,
      provenance: 'BEATLAB',
    });
    clientId = partner.clientId;
    const issuer = new URL(app().url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
  });

  async function pkce() {
    const verifier = oauth.generateRandomCodeVerifier();
    return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
  }

  const body = (challenge: string, extra: Record<string, unknown> = {}) => ({
    email: `p${Math.random().toString(36).slice(2)}@example.com`,
    password: PASSWORD,
    first_name: 'Pat',
    last_name: 'Partner',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'svc:mcp',
    ...extra,
  });

  async function exchange(code: string, verifier: string) {
    const client: oauth.Client = { client_id: clientId };
    // The partner receives the code in a JSON answer, not a redirect: validate it as that redirect would be.
    const callback = new URL(REDIRECT);
    callback.search = new URLSearchParams({ code, iss: as.issuer }).toString();
    const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(
      { ...as, token_endpoint: `${app().url}/v1/auth/token` },
      client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  }

  it('create → code → token (oauth4webapi) → submit: the release carries the partner tag everywhere', async () => {
    const { verifier, challenge } = await pkce();
    const created = await request(app().url, 'POST', '/v1/accounts', { body: body(challenge) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: expect.stringMatching(/@example\.com$/),
      authorization_code: expect.any(String),
      expires_in: 60,
      redirect_uri: REDIRECT,
      scope: 'svc:mcp',
      provenance: 'BEATLAB',
    });
    const tokens = await exchange(created.body.authorization_code, verifier);
    expect(tokens.scope).toBe('svc:mcp');
    const token = tokens.access_token;

    const me = await request(app().url, 'GET', '/v1/me', { token });
    expect(me.body.profile.id).toBe(created.body.userId);
    const [row] = await app()
      .em()
      .getConnection()
      .execute<{ provenance: string }[]>('select provenance from accounts where id = ?', [
        created.body.userId,
      ]);
    expect(row?.provenance).toBe('BEATLAB');

    await grantCredits(app().em(), { accountId: created.body.userId, credits: 10, ref: 'test' });
    const assets = await uploadAssets(app().url, {
      accountId: created.body.userId,
      email: created.body.email,
      token,
      tokenId: '',
    });
    // Even an X-Svc-Provenance header does not override the partner's own token.
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token,
      body: validSubmission(assets, 1),
      headers: { 'x-svc-provenance': 'OTHER' },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ provenance: 'BEATLAB', creditsCharged: 1 });
    const id = submitted.body.releaseId;

    const rest = await request(app().url, 'GET', `/v1/releases/${id}`, { token });
    expect(rest.body.provenance).toBe('BEATLAB');
    const list = await request(app().url, 'GET', '/v1/releases', { token });
    expect(list.body.releases[0].provenance).toBe('BEATLAB');
    const gql = await graphql(
      app().url,
      `query($id: ID!) { release(id: $id) { provenance } }`,
      { id },
      token,
    );
    expect(gql.body.data.release.provenance).toBe('BEATLAB');
    const tool = await request(app().url, 'POST', '/api/mcp', {
      token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_release_metadata', arguments: { releaseId: id } },
      },
    });
    expect(JSON.parse(tool.body.result.content[0].text).provenance).toBe('BEATLAB');
  });

  it('authorize: an existing account by password → a code that redeems once', async () => {
    const account = await accountWithPassword(app().em(), 'existing@example.com', PASSWORD);
    const { verifier, challenge } = await pkce();
    const authorized = await request(app().url, 'POST', '/v1/auth/authorize', {
      body: { ...body(challenge), email: account.email, first_name: undefined, last_name: undefined },
    });
    expect(authorized.status).toBe(200);
    expect(authorized.body.userId).toBe(account.id);
    const tokens = await exchange(authorized.body.authorization_code, verifier);
    expect(tokens.access_token).toMatch(/./);
    await expect(exchange(authorized.body.authorization_code, verifier)).rejects.toThrow();
  });

  it('create errors: email_taken 409, weak_password 422, invalid_client 401, pkce_required 400', async () => {
    const { challenge } = await pkce();
    const first = body(challenge);
    expect((await request(app().url, 'POST', '/v1/accounts', { body: first })).status).toBe(201);
    const taken = await request(app().url, 'POST', '/v1/accounts', { body: first });
    expect([taken.status, taken.body.code]).toEqual([409, 'email_taken']);

    const weak = await request(app().url, 'POST', '/v1/accounts', {
      body: body(challenge, { password: 'short' }),
    });
    expect([weak.status, weak.body.code]).toEqual([422, 'weak_password']);
    expect(weak.body.message).toMatch(/too short \(5 characters\): it must be 10 to 200 characters/);

    const unknown = await request(app().url, 'POST', '/v1/accounts', {
      body: body(challenge, { client_id: 'tbp_unknown' }),
    });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'invalid_client']);
    const wrongRedirect = await request(app().url, 'POST', '/v1/accounts', {
      body: body(challenge, { redirect_uri: 'https://evil.example/cb' }),
    });
    expect(wrongRedirect.body.code).toBe('invalid_client');

    for (const extra of [{ code_challenge: undefined }, { code_challenge_method: 'plain' }]) {
      const refused = await request(app().url, 'POST', '/v1/accounts', { body: body(challenge, extra) });
      expect([refused.status, refused.body.code]).toEqual([400, 'pkce_required']);
    }
  });

  it('authorize errors: invalid_credentials 401, account_locked 423, invalid_client 401, pkce_required 400', async () => {
    const account = await accountWithPassword(app().em(), 'locked@example.com', PASSWORD);
    const { challenge } = await pkce();
    const authorize = (extra: Record<string, unknown>) =>
      request(app().url, 'POST', '/v1/auth/authorize', {
        body: body(challenge, { email: account.email, ...extra }),
      });

    const unknown = await authorize({ client_id: 'tbp_nope' });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'invalid_client']);
    const noPkce = await authorize({ code_challenge_method: undefined });
    expect([noPkce.status, noPkce.body.code]).toEqual([400, 'pkce_required']);

    const wrong = await authorize({ password: 'not the password at all' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'invalid_credentials']);
    for (let i = 0; i < 3; i++) await authorize({ password: 'not the password at all' });
    const locked = await authorize({ password: 'not the password at all' });
    expect([locked.status, locked.body.code]).toEqual([423, 'account_locked']);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const evenRight = await authorize({});
    expect(evenRight.status).toBe(423);
  });

  it('authorize answers a known and an unknown email alike, through the lock; only the known one is recorded', async () => {
    const known = await accountWithPassword(app().em(), `known-${Date.now()}@example.com`, PASSWORD);
    const unknownEmail = `unknown-${Date.now()}@example.com`;
    const { challenge } = await pkce();
    const authorize = (email: string) =>
      request(app().url, 'POST', '/v1/auth/authorize', {
        body: body(challenge, { email, password: 'not the password at all' }),
      });
    const shape = (response: Awaited<ReturnType<typeof authorize>>) => ({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: { ...response.body, requestId: undefined },
    });
    for (let i = 0; i < 5; i++) {
      const [a, b] = [shape(await authorize(known.email)), shape(await authorize(unknownEmail))];
      expect(b).toEqual(a);
      expect(a.status).toBe(i < 4 ? 401 : 423);
    }
    const recorded = await app()
      .em()
      .execute<{ kind: string; n: number }[]>(
        `select kind, count(*)::int as n from sign_in_events where account_id = ? group by kind order by kind`,
        [known.id],
      );
    expect(recorded).toEqual([
      { kind: 'failed', n: 4 },
      { kind: 'locked', n: 1 },
    ]);
  });

  it('is rate limited per IP and per client_id with Retry-After', async () => {
    // The earlier cases spent some of this address's allowance; spend the rest with a cheap refusal.
    let last = await request(app().url, 'POST', '/v1/accounts', {
      body: { ...body(''), client_id: 'tbp_x' },
    });
    for (let i = 0; i < PARTNER_CALLS_PER_IP.points && last.status !== 429; i++) {
      last = await request(app().url, 'POST', '/v1/accounts', { body: { ...body(''), client_id: 'tbp_x' } });
    }
    expect(last.status).toBe(429);
    expect(last.body.type).toBe('rate_limit_error');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // GraphQL counts the same address (its context carries the caller's IP too).
    const viaGraphql = await graphql(
      app().url,
      `mutation { createPartnerAccount(email: "g@example.com", password: "a long enough passphrase",
        clientId: "tbp_x", redirectUri: "${REDIRECT}") { userId } }`,
    );
    expect(viaGraphql.body.errors?.[0]?.extensions.type).toBe('rate_limit_error');
  });
});

describe('partner authorize: known and unknown emails answer alike', () => {
  const app = useTestApp();

  it('six wrong passwords give the same statuses, bodies and headers for an account and a stranger', async () => {
    const partner = await createPartner(app().em(), { name: 'Probe Lab', redirectUri: REDIRECT });
    await accountWithPassword(app().em(), 'member@example.com', PASSWORD);
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const ignored = ['date', 'x-request-id'];
    const sequenceOf = async (email: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const answer = await request(app().url, 'POST', '/v1/auth/authorize', {
          body: {
            email,
            password: 'not the password at all',
            client_id: partner.clientId,
            redirect_uri: REDIRECT,
            code_challenge: challenge,
            code_challenge_method: 'S256',
          },
        });
        // The lock names the time left, which may tick by a second between the two runs: compare its shape.
        const { requestId: _id, message, retryAfterSeconds, ...rest } = answer.body;
        const headers = [...answer.headers.entries()]
          .filter(([name]) => !ignored.includes(name))
          .map(([name, value]) => [
            name,
            name === 'retry-after'
              ? 'seconds'
              : name === 'ratelimit'
                ? budgetsOnly(value, ['sign-in-account'])
                : value,
          ])
          .sort();
        answers.push({
          status: answer.status,
          body: rest,
          message: String(message).replace(/\d+/g, 'N'),
          retryAfter: typeof retryAfterSeconds,
          headers,
        });
      }
      return answers;
    };
    const known = await sequenceOf('member@example.com');
    const unknown = await sequenceOf('stranger@example.com');
    expect(known.map((answer) => [answer.status, answer.body.code])).toEqual([
      [401, 'invalid_credentials'],
      [401, 'invalid_credentials'],
      [401, 'invalid_credentials'],
      [401, 'invalid_credentials'],
      [423, 'account_locked'],
      [423, 'account_locked'],
    ]);
    expect(unknown).toEqual(known);
  });
});
