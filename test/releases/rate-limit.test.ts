import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

async function submitUntilLimited(
  baseUrl: string,
  token: string,
  assets: Awaited<ReturnType<typeof uploadAssets>>,
  attempts: number,
) {
  const statuses: number[] = [];
  let limited: Awaited<ReturnType<typeof request>> | null = null;
  for (let i = 0; i < attempts; i++) {
    const response = await request(baseUrl, 'POST', '/api/mcp/submit', {
      token,
      body: validSubmission(assets, 1),
    });
    statuses.push(response.status);
    if (response.status === 429) limited ??= response;
  }
  return { statuses, limited };
}

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`POST /api/mcp/submit rate limit (${store})`, () => {
    const app = useTestApp(store === 'Redis' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {});

    it('3 per 5 minutes per account, then 429 with Retry-After and retryAfterSeconds; REST is not limited', async () => {
      const account = await accountWithToken(app().em(), { credits: 20 });
      const assets = await uploadAssets(app().url, account);
      const { statuses, limited } = await submitUntilLimited(app().url, account.token, assets, 4);
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(limited!.body).toMatchObject({ type: 'rate_limit_error' });
      const retryAfter = (limited!.body as { retryAfterSeconds: number }).retryAfterSeconds;
      expect(retryAfter).toBeGreaterThan(250);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expect(limited!.headers.get('retry-after')).toBe(String(retryAfter));
      const rest = await request(app().url, 'POST', '/v1/releases', {
        token: account.token,
        body: validSubmission(assets, 1),
      });
      expect(rest.status).toBe(201);
      const other = await accountWithToken(app().em(), { credits: 5 });
      const otherAssets = await uploadAssets(app().url, other);
      const fresh = await request(app().url, 'POST', '/api/mcp/submit', {
        token: other.token,
        body: validSubmission(otherAssets, 1),
      });
      expect(fresh.status).toBe(201);
    });

    it('10 per 5 minutes for insiders', async () => {
      const account = await accountWithToken(app().em(), { credits: 20, insider: true });
      const assets = await uploadAssets(app().url, account);
      const { statuses } = await submitUntilLimited(app().url, account.token, assets, 11);
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.at(-1)).toBe(429);
    });
  });
}
