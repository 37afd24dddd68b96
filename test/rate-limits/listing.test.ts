import { describe, expect, it } from 'vitest';
import { coverArt } from '../cover-art/support.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { byName, callTool, type ListedLimit, listRest } from './support.ts';

const RATE_LIMITS = `{ rateLimits { name action keyedBy appliesTo quota windowSeconds remaining resetSeconds resetsAt } }`;

/** The GraphQL answer in the REST names and values, to compare the surfaces. */
const asRest = (limit: Record<string, unknown>): ListedLimit => ({
  name: limit.name as string,
  action: (limit.action as string).toLowerCase(),
  keyed_by: (limit.keyedBy as string).toLowerCase(),
  applies_to: limit.appliesTo as string,
  quota: limit.quota as number,
  window_seconds: limit.windowSeconds as number,
  remaining: limit.remaining as number,
  reset_seconds: limit.resetSeconds as number | null,
  resets_at: limit.resetsAt as string | null,
});

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`GET /v1/rate-limits (${store})`, () => {
    const app = useTestApp(
      store === 'Redis'
        ? { REDIS_URL: 'redis://127.0.0.1:6379', FRAUD_RATE_LIMIT_PER_MINUTE: '7', FRAUD_DAILY_QUOTA: '9' }
        : { FRAUD_RATE_LIMIT_PER_MINUTE: '7', FRAUD_DAILY_QUOTA: '9' },
    );

    it('the figures after N spends, unchanged by reading them; GraphQL and the agent tool say the same', async () => {
      const { token } = await accountWithToken(app().em());
      const fresh = await listRest(app(), token);
      expect(fresh.status).toBe(200);
      expect(byName(fresh.body.rate_limits)['cover-art']).toMatchObject({ remaining: 5 });
      expect(fresh.body.rate_limits.find((limit) => limit.name === 'cover-art')).toMatchObject({
        reset_seconds: null,
        resets_at: null,
      });

      const spends = 3;
      for (let n = 0; n < spends; n++) {
        expect((await coverArt(app(), token, { prompt: `spend ${n}` })).status).toBe(201);
      }
      const first = await listRest(app(), token);
      const spent = first.body.rate_limits.find((limit) => limit.name === 'cover-art')!;
      expect(spent).toMatchObject({
        action: 'cover_art_generation',
        keyed_by: 'account',
        quota: 5,
        window_seconds: 120,
        remaining: 5 - spends,
      });
      expect(spent.reset_seconds).toBeGreaterThan(100);
      expect(spent.reset_seconds).toBeLessThanOrEqual(120);
      const resetsAt = Date.parse(spent.resets_at!);
      expect(Math.abs(resetsAt - (Date.now() + spent.reset_seconds! * 1000))).toBeLessThan(5_000);

      // Reading, on any surface and as often as asked, spends nothing.
      const again = [
        await listRest(app(), token),
        await listRest(app(), token),
        await listRest(app(), token),
      ];
      const viaGraphql = await graphql(app().url, RATE_LIMITS, {}, token);
      const viaTool = await callTool<{ rate_limits: ListedLimit[] }>(app(), token, 'get_rate_limits');
      const last = await listRest(app(), token);
      const answers = [
        ...again.map((answer) => answer.body.rate_limits),
        (viaGraphql.body.data.rateLimits as Record<string, unknown>[]).map(asRest),
        viaTool.result!.rate_limits,
        last.body.rate_limits,
      ];
      for (const answer of answers) {
        expect(byName(answer)).toEqual(byName(first.body.rate_limits));
        const resets = answer.find((limit) => limit.name === 'cover-art')!.reset_seconds!;
        expect(Math.abs(resets - spent.reset_seconds!)).toBeLessThanOrEqual(2);
      }
      expect(viaTool.error).toBeUndefined();
      expect(last.headers.get('ratelimit')).toBeNull();
    });

    it("lists the account's, its email address's and the caller's IP address's limits", async () => {
      const { token } = await accountWithToken(app().em());
      const listed = byName((await listRest(app(), token)).body.rate_limits);
      expect(Object.keys(listed).sort()).toEqual(
        [
          'agent-submit',
          'cover-art',
          'email-challenge-email',
          'email-challenge-ip',
          'email-claim-email',
          'email-claim-ip',
          'graphql-document-registration',
          'partner-ip',
          'sandbox-events',
          'sign-in-account',
          'sign-in-ip',
          'sign-up-ip',
        ].sort(),
      );
      expect(listed['agent-submit']).toMatchObject({ keyed_by: 'account', quota: 3, window_seconds: 300 });
      expect(listed['sign-in-account']).toMatchObject({ keyed_by: 'email_address', quota: 5 });
      expect(listed['sign-up-ip']).toMatchObject({ action: 'sign_up', keyed_by: 'ip_address', quota: 20 });
      const insider = await accountWithToken(app().em(), { insider: true });
      const insiders = byName((await listRest(app(), insider.token)).body.rate_limits);
      expect(insiders['agent-submit']).toMatchObject({ quota: 10, remaining: 10 });
      expect(insiders['cover-art']).toMatchObject({ quota: 15, remaining: 15 });
    });

    it('per-address limits spent before signing in show on the listing (a failed sign-in, a partner call)', async () => {
      const { token, email } = await accountWithToken(app().em());
      await callTool(app(), undefined, 'auth_login', { username: email, password: 'wrong' });
      await request(app().url, 'POST', '/v1/auth/authorize', {
        body: { email, password: 'wrong', client_id: 'nobody', redirect_uri: 'https://partner.example/cb' },
      });
      const listed = byName((await listRest(app(), token)).body.rate_limits);
      expect(listed['sign-in-account']).toMatchObject({ action: 'failed_sign_in', remaining: 4 });
      expect(listed['sign-in-ip']).toMatchObject({ keyed_by: 'ip_address', remaining: 29 });
      expect(listed['partner-ip']).toMatchObject({ action: 'partner_call', remaining: 29 });
    });

    it('the fraud-score limits only for a token with svc:fraud; the daily one resets at midnight UTC', async () => {
      const fraud = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
      const scored = await request(app().url, 'POST', '/v1/fraud/score', {
        token: fraud.token,
        body: { email: fraud.email },
      });
      expect(scored.status).toBe(200);
      const listed = (await listRest(app(), fraud.token)).body.rate_limits;
      const named = byName(listed);
      expect(named['fraud-score-minute']).toMatchObject({ quota: 7, window_seconds: 60, remaining: 6 });
      expect(named['fraud-score-day']).toMatchObject({ quota: 9, window_seconds: 86_400, remaining: 8 });
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      const daily = listed.find((limit) => limit.name === 'fraud-score-day')!;
      expect(Math.abs(daily.reset_seconds! - (midnight - now.getTime()) / 1000)).toBeLessThan(5);
      const mcpOnly = await accountWithToken(app().em());
      const names = (await listRest(app(), mcpOnly.token)).body.rate_limits.map((limit) => limit.name);
      expect(names).not.toContain('fraud-score-minute');
    });

    it('needs a bearer token', async () => {
      const anonymous = await request(app().url, 'GET', '/v1/rate-limits');
      expect(anonymous.status).toBe(401);
    });
  });
}
