import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql } from '../support/http.ts';
import { callTool, coverArt } from './support.ts';

const GRAPHQL = `mutation ($input: GenerateCoverArtInput!) { generateCoverArt(input: $input) { rateLimit { remaining } } }`;

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`cover art allowance (${store})`, () => {
    const app = useTestApp(store === 'Redis' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {});

    it('5 per 2 minutes per account, shared by REST, the agent tool and GraphQL; the 6th answers 429', async () => {
      const account = await accountWithToken(app().em());
      const remaining: number[] = [];
      for (let i = 0; i < 2; i++) {
        remaining.push(
          (await coverArt(app(), account.token, { prompt: `rest ${i}` })).body.rateLimit.remaining,
        );
        remaining.push(
          (await callTool(app(), account.token, { prompt: `tool ${i}` })).result!.rateLimit.remaining,
        );
      }
      const viaGraphql = await graphql(app().url, GRAPHQL, { input: { prompt: 'graphql' } }, account.token);
      remaining.push(viaGraphql.body.data.generateCoverArt.rateLimit.remaining);
      expect(remaining).toEqual([4, 3, 2, 1, 0]);

      const limited = await coverArt(app(), account.token, { prompt: 'one too many' });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      const retryAfter = (limited.body as unknown as { retryAfterSeconds: number }).retryAfterSeconds;
      expect(retryAfter).toBeGreaterThan(100);
      expect(retryAfter).toBeLessThanOrEqual(120);
      expect(limited.headers.get('retry-after')).toBe(String(retryAfter));
      const tool = await callTool(app(), account.token, { prompt: 'one too many' });
      expect(tool.error).toMatchObject({ code: 429, data: { type: 'rate_limit_error' } });
      expect(tool.error!.data.retryAfterSeconds).toBeGreaterThan(100);

      const other = await accountWithToken(app().em());
      expect((await coverArt(app(), other.token, { prompt: 'fresh' })).body.rateLimit.remaining).toBe(4);
    });

    it('15 per 2 minutes for insiders', async () => {
      const insider = await accountWithToken(app().em(), { insider: true });
      const statuses: number[] = [];
      let lastRemaining = -1;
      for (let i = 0; i < 16; i++) {
        const response = await coverArt(app(), insider.token, { prompt: `insider ${i}` });
        statuses.push(response.status);
        if (response.status === 201) lastRemaining = response.body.rateLimit.remaining;
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(15);
      expect(statuses.at(-1)).toBe(429);
      expect(lastRemaining).toBe(0);
    });
  });
}
