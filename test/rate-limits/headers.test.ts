import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeRateLimitHeaders } from '../../facades/rate-limit-headers.ts';
import { coverArt } from '../cover-art/support.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { budgets, callTool, listRest, policies } from './support.ts';

const GENERATE = `mutation ($input: GenerateCoverArtInput!) { generateCoverArt(input: $input) { rateLimit { remaining } } }`;

it('writes the draft’s structured-field lists: quoted policy names, t left out when no window runs', () => {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  writeRateLimitHeaders(res, [
    { policy: 'a"b\\c', quota: 5, windowSeconds: 120, remaining: 4, resetSeconds: 120 },
    { policy: 'idle', quota: 3, windowSeconds: 60, remaining: 3, resetSeconds: null },
  ]);
  expect(res.getHeader('ratelimit-policy')).toBe('"a\\"b\\\\c";q=5;w=120, "idle";q=3;w=60');
  expect(res.getHeader('ratelimit')).toBe('"a\\"b\\\\c";r=4;t=120, "idle";r=3');
});

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`RateLimit headers on REST answers (${store})`, () => {
    const app = useTestApp(store === 'Redis' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {});

    it('every spend says the budget and what is left; the 429 says r=0 and t is its Retry-After', async () => {
      const { token } = await accountWithToken(app().em());
      for (let spent = 1; spent <= 5; spent++) {
        const answer = await coverArt(app(), token, { prompt: `spend ${spent}` });
        expect(answer.status).toBe(201);
        expect(answer.headers.get('ratelimit-policy')).toBe('"cover-art";q=5;w=120');
        const budget = budgets(answer.headers)['cover-art']!;
        expect(budget.r).toBe(5 - spent);
        expect(budget.r).toBe(answer.body.rateLimit.remaining);
        expect(budget.t).toBeGreaterThan(100);
        expect(budget.t).toBeLessThanOrEqual(120);
      }
      const refused = await coverArt(app(), token, { prompt: 'one too many' });
      expect(refused.status).toBe(429);
      expect(policies(refused.headers)).toEqual({ 'cover-art': { q: 5, w: 120 } });
      const budget = budgets(refused.headers)['cover-art']!;
      expect(budget.r).toBe(0);
      expect(String(budget.t)).toBe(refused.headers.get('retry-after'));
      // The listing says the same, and reading it spends nothing (nor carries the headers).
      const listed = await listRest(app(), token);
      expect(listed.headers.get('ratelimit')).toBeNull();
      const coverArtLimit = listed.body.rate_limits.find((limit) => limit.name === 'cover-art')!;
      expect(coverArtLimit).toMatchObject({ quota: 5, window_seconds: 120, remaining: 0 });
      expect(Math.abs(coverArtLimit.reset_seconds! - budget.t!)).toBeLessThanOrEqual(1);
    });
  });
}

describe('RateLimit headers on GraphQL and the agent surface', () => {
  const app = useTestApp();

  it('GraphQL answers carry them; the refusal has the figures in its extensions', async () => {
    const { token } = await accountWithToken(app().em());
    for (let spent = 1; spent <= 5; spent++) {
      const answer = await graphql(app().url, GENERATE, { input: { prompt: `gql ${spent}` } }, token);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.headers.get('ratelimit-policy')).toBe('"cover-art";q=5;w=120');
      expect(budgets(answer.headers)['cover-art']!.r).toBe(5 - spent);
    }
    const refused = await graphql(app().url, GENERATE, { input: { prompt: 'over' } }, token);
    const extensions = refused.body.errors![0]!.extensions;
    expect(extensions).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limited',
      rateLimit: { policy: 'cover-art', quota: 5, windowSeconds: 120, remaining: 0 },
    });
    const rateLimit = extensions.rateLimit as { resetSeconds: number };
    expect(rateLimit.resetSeconds).toBe(extensions.retryAfterSeconds);
    expect(budgets(refused.headers)['cover-art']).toEqual({ r: 0, t: rateLimit.resetSeconds });
    expect(refused.headers.get('ratelimit-policy')).toBe('"cover-art";q=5;w=120');

    // The agent tool's refusal: the same figures in error.data, the same headers on its HTTP answer.
    const tool = await callTool(app(), token, 'generate_cover_art', { prompt: 'over again' });
    expect(tool.error).toMatchObject({
      code: 429,
      data: { type: 'rate_limit_error', rateLimit: { policy: 'cover-art', quota: 5, remaining: 0 } },
    });
    expect(budgets(tool.headers)['cover-art']!.r).toBe(0);
  });

  it('an answer that spends several budgets lists each (a partner call: per IP, then per client_id)', async () => {
    const answer = await request(app().url, 'POST', '/v1/accounts', {
      body: {
        email: 'someone@example.test',
        password: 'a long enough password',
        client_id: 'no-such-partner',
        redirect_uri: 'https://partner.example/callback',
      },
    });
    expect(answer.status).toBe(401);
    expect(policies(answer.headers)).toEqual({
      'partner-ip': { q: 30, w: 60 },
      'partner-client': { q: 120, w: 60 },
    });
    expect(budgets(answer.headers)['partner-ip']!.r).toBe(29);
    expect(budgets(answer.headers)['partner-client']!.r).toBe(119);
  });

  it('a failed sign-in (auth_login) shows the email’s and the address’s budgets', async () => {
    const { email } = await accountWithToken(app().em());
    const failed = await callTool(app(), undefined, 'auth_login', { username: email, password: 'wrong' });
    expect(failed.error?.data).toMatchObject({ code: 'invalid_credentials' });
    expect(policies(failed.headers)).toEqual({
      'sign-in-ip': { q: 30, w: 900 },
      'sign-in-account': { q: 5, w: 900 },
    });
    expect(budgets(failed.headers)['sign-in-account']!.r).toBe(4);
  });

  it('a document registration (Automatic Persisted Queries) carries its budget', async () => {
    const { token } = await accountWithToken(app().em());
    const query = `query Registered${Date.now()} { me { email } }`;
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const answer = await request(app().url, 'POST', '/graphql', {
      token,
      body: { query, extensions: { persistedQuery: { version: 1, sha256Hash } } },
    });
    expect(answer.status).toBe(200);
    expect(policies(answer.headers)).toEqual({ 'graphql-document-registration': { q: 60, w: 60 } });
    expect(budgets(answer.headers)['graphql-document-registration']!.r).toBe(59);
    const listed = await listRest(app(), token);
    expect(
      listed.body.rate_limits.find((limit) => limit.name === 'graphql-document-registration'),
    ).toMatchObject({ action: 'document_registration', keyed_by: 'account', remaining: 59 });
    // Reads that spend nothing carry no RateLimit fields.
    const plain = await graphql(app().url, '{ me { email } }', {}, token);
    expect(plain.headers.get('ratelimit')).toBeNull();
  });
});
