import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { consumeFraudAllowance } from '../../src/domains/fraud/allowance.ts';
import { FRAUD_RULES, MAX_SCORE } from '../../src/domains/fraud/rules.ts';
import { createRateLimits } from '../../src/platform/rate-limit/index.ts';
import { liveRelease } from '../analytics/support.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const DAY_MS = 86_400_000;

describe('POST /v1/fraud/score', () => {
  const app = useTestApp({ FRAUD_RATE_LIMIT_PER_MINUTE: '5', FRAUD_DAILY_QUOTA: '3' });
  const em = () => app().em();
  const sql = (text: string, params: unknown[] = []) => em().execute(text, params);

  /** A caller of its own (limits are per caller), with a fraud-only token. */
  const caller = () => accountWithToken(em(), { scopes: ['svc:fraud'] });

  const score = async (email: string, token?: string) =>
    request(app().url, 'POST', '/v1/fraud/score', {
      token: token ?? (await caller()).token,
      body: { email },
    });

  /** An account that triggers nothing: a year old, a plain email, no releases. */
  async function subject(options: { email?: string; provenance?: string; createdAt?: Date } = {}) {
    const email = options.email ?? `subject-${randomUUID()}@example.com`;
    const account = await accountWithToken(em(), { email });
    await sql('update accounts set created_at = ?, provenance = ? where id = ?', [
      options.createdAt ?? new Date(Date.now() - 365 * DAY_MS),
      options.provenance ?? null,
      account.accountId,
    ]);
    return account;
  }

  const releaseOf = (
    accountId: string,
    options: { storeIds?: number[]; liveAt?: Date; trackCount?: number } = {},
  ) =>
    liveRelease(em(), accountId, {
      storeIds: options.storeIds ?? [301],
      liveAt: options.liveAt ?? new Date(Date.now() - 200 * DAY_MS),
      trackCount: options.trackCount ?? 1,
    });

  async function triggered(email: string) {
    const response = await score(email);
    expect(response.status).toBe(200);
    return {
      body: response.body,
      codes: response.body.flags
        .filter((f: { triggered: boolean }) => f.triggered)
        .map((f: { code: string }) => f.code),
    };
  }

  const points = (code: string) => FRAUD_RULES.find((rule) => rule.code === code)!.points;

  /** Raw rows and the (account, day, store) rollup the score reads, as ingestion writes them. */
  async function streams(
    releaseId: string,
    accountId: string,
    rows: [day: number, storeId: number, streams: number][],
  ) {
    for (const [day, storeId, count] of rows) {
      await sql(
        `insert into stream_days (release_id, day, store_id, account_id, streams)
         values (?, current_date - ?::int, ?, ?, ?)`,
        [releaseId, day, storeId, accountId, count],
      );
    }
    await sql(
      `insert into stream_store_days (account_id, day, store_id, streams)
       select account_id, day, store_id, sum(streams) from stream_days where account_id = ? group by 1, 2, 3
       on conflict (account_id, day, store_id) do update set streams = excluded.streams`,
      [accountId],
    );
  }

  it('a clean account: every flag listed, none triggered, score 0, the spec fields only', async () => {
    const clean = await subject();
    const { id: releaseId } = { id: (await releaseOf(clean.accountId, { trackCount: 2 })).releaseId };
    await streams(
      releaseId,
      clean.accountId,
      Array.from(
        { length: 30 },
        (_, i) =>
          [
            [i + 1, 301, 60],
            [i + 1, 302, 40],
          ] as [number, number, number][],
      ).flat(),
    );
    const { body, codes } = await triggered(clean.email.toUpperCase());
    expect(codes).toEqual([]);
    expect(Object.keys(body)).toEqual(['email', 'score', 'maxScore', 'severity', 'computedAt', 'flags']);
    expect(body).toMatchObject({ email: clean.email, score: 0, maxScore: MAX_SCORE, severity: 'none' });
    expect(new Date(body.computedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.flags.map((f: { code: string }) => f.code)).toEqual(FRAUD_RULES.map((rule) => rule.code));
    for (const flag of body.flags) {
      expect(Object.keys(flag)).toEqual(['code', 'label', 'category', 'severity', 'triggered', 'points']);
      expect(flag.points).toBe(0);
    }
  });

  const alone = async (email: string, code: string) => {
    const { body, codes } = await triggered(email);
    expect(codes).toEqual([code]);
    expect(body.score).toBe(points(code));
    expect(body.flags.find((f: { code: string }) => f.code === code)).toMatchObject({
      triggered: true,
      points: points(code),
    });
    return body;
  };

  it('disposable_email_domain fires alone on a throwaway mail provider', async () => {
    const account = await subject({ email: `someone-${randomUUID().slice(0, 8)}@mailinator.com` });
    const body = await alone(account.email, 'disposable_email_domain');
    expect(body.severity).toBe('low');
  });

  it('new_account fires alone on an account created today', async () => {
    const account = await subject({ createdAt: new Date() });
    await alone(account.email, 'new_account');
  });

  it('release_burst fires alone on five releases submitted within a day', async () => {
    const account = await subject();
    for (let i = 0; i < 5; i++)
      await releaseOf(account.accountId, { liveAt: new Date(Date.now() - 100 * DAY_MS + i * 3_600_000) });
    await alone(account.email, 'release_burst');
  });

  it('high_takedown_ratio fires alone when a third of the releases were taken down', async () => {
    const account = await subject();
    const releases = [];
    for (let i = 0; i < 3; i++)
      releases.push(
        await releaseOf(account.accountId, { liveAt: new Date(Date.now() - (100 + i * 10) * DAY_MS) }),
      );
    await sql(`update deliveries set status = 'taken_down' where release_id = ?`, [releases[0]!.releaseId]);
    await alone(account.email, 'high_takedown_ratio');
  });

  it('provenance_cluster fires alone on ten accounts of one provenance within a day, naming none of them', async () => {
    const provenance = `partner-${randomUUID().slice(0, 8)}`;
    const base = Date.now() - 200 * DAY_MS;
    const others = [];
    for (let i = 0; i < 9; i++)
      others.push(await subject({ provenance, createdAt: new Date(base + i * 600_000) }));
    const account = await subject({ provenance, createdAt: new Date(base + 3_000_000) });
    const body = await alone(account.email, 'provenance_cluster');
    const text = JSON.stringify(body);
    for (const other of others) expect(text).not.toContain(other.email);
    expect(text).not.toContain(provenance);
  });

  /** A checked audio file of the account, with the registry check's stored result. */
  async function checkedAudio(accountId: string, result: Record<string, unknown>) {
    const fileId = randomUUID();
    await sql(
      `insert into stored_files (id, account_id, store, name, storage_key, size, content_type, sha256, source_sha256,
                                 source_size, origin, media, warnings, created_at)
       values (?, ?, 'audio', 'x.flac', ?, 1, 'audio/flac', ?, ?, 1, 'base64', '{}', '[]', now())`,
      [fileId, accountId, `audio/${fileId}`, 'a'.repeat(64), 'a'.repeat(64)],
    );
    await sql(
      `insert into audio_analyses (id, file_id, kind, result, created_at) values (?, ?, 'registry_match', ?, now())`,
      [randomUUID(), fileId, JSON.stringify(result)],
    );
  }

  it('registry_match_conflict fires alone when uploaded audio matched a registered recording', async () => {
    const account = await subject();
    await checkedAudio(account.accountId, { status: 'ok', matched: true, bestMatch: { ownRelease: false } });
    await alone(account.email, 'registry_match_conflict');
  });

  it('registry_match_conflict stays off when the match is the account’s own live release', async () => {
    const account = await subject();
    await checkedAudio(account.accountId, { status: 'ok', matched: true, bestMatch: { ownRelease: true } });
    expect((await triggered(account.email)).codes).toEqual([]);
  });

  it('high_ai_share fires alone when nearly every submitted track is AI-generated', async () => {
    const account = await subject();
    const { releaseId } = await releaseOf(account.accountId, { trackCount: 5 });
    await sql('update release_tracks set ai = true where release_id = ?', [releaseId]);
    await alone(account.email, 'high_ai_share');
  });

  const signInEvents = async (accountId: string, rows: [kind: 'failed' | 'locked', daysAgo: number][]) => {
    for (const [kind, daysAgo] of rows)
      await sql('insert into sign_in_events (account_id, kind, occurred_at) values (?, ?, ?)', [
        accountId,
        kind,
        new Date(Date.now() - daysAgo * DAY_MS),
      ]);
  };

  it('failed_sign_ins fires alone on ten failed sign-ins within 30 days', async () => {
    const account = await subject();
    await signInEvents(
      account.accountId,
      Array.from({ length: 10 }, (_, i) => ['failed', i * 2] as const),
    );
    await alone(account.email, 'failed_sign_ins');
  });

  it('failed_sign_ins fires alone on one lock within 30 days', async () => {
    const account = await subject();
    await signInEvents(account.accountId, [['locked', 3]]);
    await alone(account.email, 'failed_sign_ins');
  });

  it('failed_sign_ins stays off for nine failures, or failures and locks older than 30 days', async () => {
    const account = await subject();
    await signInEvents(account.accountId, [
      ...Array.from({ length: 9 }, (_, i) => ['failed', i + 1] as ['failed', number]),
      ...Array.from({ length: 10 }, () => ['failed', 40] as ['failed', number]),
      ['locked', 31],
    ]);
    const { codes } = await triggered(account.email);
    expect(codes).toEqual([]);
  });

  it('streaming_store_concentration fires alone when one store takes nearly all recent streams', async () => {
    const account = await subject();
    const { releaseId } = await releaseOf(account.accountId, { storeIds: [301, 302] });
    await streams(
      releaseId,
      account.accountId,
      Array.from(
        { length: 30 },
        (_, i) =>
          [
            [i + 1, 301, 300],
            [i + 1, 302, 5],
          ] as [number, number, number][],
      ).flat(),
    );
    await alone(account.email, 'streaming_store_concentration');
  });

  it('streaming_day_spike fires alone when one day takes most recent streams', async () => {
    const account = await subject();
    const { releaseId } = await releaseOf(account.accountId, { storeIds: [301, 302] });
    await streams(releaseId, account.accountId, [
      [3, 301, 5_000],
      [3, 302, 5_000],
      ...Array.from(
        { length: 29 },
        (_, i) =>
          [
            [i + 4, 301, 100],
            [i + 4, 302, 100],
          ] as [number, number, number][],
      ).flat(),
    ]);
    await alone(account.email, 'streaming_day_spike');
  });

  it('several flags add up, and the severity follows the score', async () => {
    const account = await subject({
      email: `new-${randomUUID().slice(0, 8)}@mailinator.com`,
      createdAt: new Date(),
    });
    const { body, codes } = await triggered(account.email);
    expect(codes).toEqual(['disposable_email_domain', 'new_account']);
    expect(body.score).toBe(points('disposable_email_domain') + points('new_account'));
    expect(body.severity).toBe('low');
  });

  it('403 without svc:fraud; a fraud-only token can call nothing else; both scopes can do both', async () => {
    const target = await subject();
    const mcpOnly = await accountWithToken(em());
    const refused = await score(target.email, mcpOnly.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ type: 'permission_error' });

    const fraudOnly = await caller();
    expect((await request(app().url, 'GET', '/v1/me', { token: fraudOnly.token })).status).toBe(403);
    expect((await request(app().url, 'GET', '/v1/releases', { token: fraudOnly.token })).status).toBe(403);
    const tool = await request(app().url, 'POST', '/api/mcp', {
      token: fraudOnly.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_performance_summary', arguments: {} },
      },
    });
    expect(tool.body.error).toMatchObject({ code: 403 });

    const both = await accountWithToken(em(), { scopes: ['svc:mcp', 'svc:fraud'] });
    expect((await score(target.email, both.token)).status).toBe(200);
    expect((await request(app().url, 'GET', '/v1/me', { token: both.token })).status).toBe(200);
    expect(
      (await request(app().url, 'POST', '/v1/fraud/score', { body: { email: target.email } })).status,
    ).toBe(401);
  });

  it('svc:fraud is honoured on personal access tokens only: a verified-email or agent sign-in token carrying it is refused', async () => {
    const target = await subject();
    const holder = await accountWithToken(em());
    for (const kind of ['verified_email', 'agent_login'] as const) {
      const issued = await issueToken(em(), {
        accountId: holder.accountId,
        name: `${kind} token`,
        scopes: ['svc:mcp', 'svc:fraud'],
        expires: 'none',
        kind,
      });
      const refused = await score(target.email, issued.token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ type: 'permission_error' });
      expect((await request(app().url, 'GET', '/v1/me', { token: issued.token })).status).toBe(200);
    }
  });

  it('404 when no account has the email; 400 for a malformed one', async () => {
    const missing = await score(`nobody-${randomUUID()}@example.com`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ type: 'not_found_error', code: 'account_not_found' });
    const malformed = await score('not-an-email');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ type: 'invalid_request_error', details: [{ path: 'email' }] });
  });

  it('429 once the daily free-tier quota is used (FRAUD_DAILY_QUOTA=3), with the time to midnight UTC', async () => {
    const target = await subject();
    const { token } = await caller();
    for (let i = 0; i < 3; i++) expect((await score(target.email, token)).status).toBe(200);
    const over = await score(target.email, token);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ type: 'rate_limit_error', code: 'daily_quota_exceeded' });
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(over.body.retryAfterSeconds).toBeLessThanOrEqual(Math.ceil((midnight - now.getTime()) / 1000) + 1);
    expect(Number(over.headers.get('retry-after'))).toBe(over.body.retryAfterSeconds);
    // Another caller has its own quota.
    expect((await score(target.email)).status).toBe(200);
  });

  it('429 over the per-minute rate (FRAUD_RATE_LIMIT_PER_MINUTE), before the quota', async () => {
    const limits = createRateLimits({ databaseUrl: String(app().services.orm.config.get('clientUrl')) });
    try {
      const accountId = randomUUID();
      const now = new Date();
      await consumeFraudAllowance(limits, accountId, { perMinute: 2, perDay: 100 }, now);
      await consumeFraudAllowance(limits, accountId, { perMinute: 2, perDay: 100 }, now);
      await expect(
        consumeFraudAllowance(limits, accountId, { perMinute: 2, perDay: 100 }, now),
      ).rejects.toMatchObject({
        type: 'rate_limit_error',
        code: 'rate_limited',
        retryAfterSeconds: expect.any(Number),
      });
    } finally {
      await limits.close();
    }
  });
});
