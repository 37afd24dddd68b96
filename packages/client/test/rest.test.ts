import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  type TributaryError,
  ValidationError,
} from '../src/index.ts';
import { clientOf, recordingFetch, spendRateLimit, submission, uploadAssets } from './support.ts';

/** Resolves to what the promise rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('@tributary/client: REST /v1 (openapi-fetch) against the real service', () => {
  // Webhook endpoints on loopback addresses (never delivered to here) need private addresses allowed.
  const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });

  it('discovery, profile and credits answer typed data; the public ones need no token', async () => {
    const anonymous = clientOf(app(), undefined);
    const status = await anonymous.rest.GET('/status');
    expect(status.data).toMatchObject({ status: 'ok', database: 'ok' });
    const pricing = await anonymous.rest.GET('/pricing');
    expect(pricing.data?.currency).toBe('USD');
    const stores = await anonymous.rest.GET('/distribution-stores');
    expect(stores.data?.stores.length).toBeGreaterThan(0);

    const account = await accountWithToken(app().em(), { credits: 7 });
    const client = clientOf(app(), account.token);
    const schema = await client.rest.GET('/release-schema');
    expect(schema.data).toMatchObject({ version: expect.any(String) });
    const me = await client.rest.GET('/me');
    expect(me.data?.profile).toMatchObject({ id: account.accountId, email: account.email });
    const credits = await client.rest.GET('/me/credits', { params: { query: { transactions: 5 } } });
    expect(credits.data?.balance).toBe(7);
  });

  it('files, drafts, quote, submit (keyed), list, get, status, job, stores and analytics', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const { fetch, sent } = recordingFetch();
    const client = clientOf(app(), account.token, { fetch });
    const assets = await uploadAssets(client);
    expect(assets.coverUrl).toMatch(/^\/api\/files\/cover-art\//);
    const body = submission(assets);

    const draft = await client.rest.POST('/drafts', { body: { release: { title: 'Draft first' } } });
    expect(draft.data).toMatchObject({ releaseCreated: true, snapshot: { revision: 1 } });

    const quote = await client.rest.POST('/releases/quote', { body });
    expect(quote.data).toMatchObject({ submittable: true, cost: { totalCredits: expect.any(Number) } });

    const submitted = await client.rest.POST('/releases', { body });
    const releaseId = submitted.data!.releaseId;
    expect(submitted.data).toMatchObject({ status: 'submitted', alreadySubmitted: false });
    // The client keyed the submission itself; the same key again answers the same release, uncharged.
    const submitRequest = sent.find((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/releases');
    const key = submitRequest?.headers.get('idempotency-key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const again = await client.rest.POST('/releases', {
      body,
      params: { header: { 'Idempotency-Key': key! } },
    });
    expect(again.data).toMatchObject({ releaseId });
    const credits = await client.rest.GET('/me/credits');
    expect(credits.data?.balance).toBe(10 - submitted.data!.creditsCharged);

    const list = await client.rest.GET('/releases', { params: { query: { limit: 10 } } });
    expect(list.data?.releases.map((r) => r.id)).toContain(releaseId);
    const release = await client.rest.GET('/releases/{id}', { params: { path: { id: releaseId } } });
    expect(release.data).toMatchObject({ id: releaseId, status: 'submitted' });
    const status = await client.rest.GET('/releases/{id}/status', { params: { path: { id: releaseId } } });
    expect(status.data).toMatchObject({ releaseId, aggregateStatus: 'queued' });
    const job = await client.rest.GET('/releases/{id}/job', { params: { path: { id: releaseId } } });
    expect(job.data).toMatchObject({ releaseId, state: 'queued' });
    const policies = await client.rest.GET('/releases/{id}/ugc-policies', {
      params: { path: { id: releaseId } },
    });
    expect(policies.data?.release_id).toBe(releaseId);

    const summary = await client.rest.GET('/analytics/summary', {
      params: { query: { from_date: '2026-01-01', to_date: '2026-01-31' } },
    });
    expect(summary.data).toMatchObject({ fromDate: '2026-01-01', toDate: '2026-01-31' });
  });

  it('webhooks: create, list, update, deliveries, delete; the sixth is a ConflictError', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const created = await client.rest.POST('/webhooks', {
      body: { url: 'https://127.0.0.1:9/hook', event_types: ['release.status_changed'] },
    });
    const id = created.data!.endpoint.id;
    expect(created.data?.signing_secret).toMatch(/^whsec_/);
    const updated = await client.rest.PATCH('/webhooks/{id}', {
      params: { path: { id } },
      body: { description: 'dashboard' },
    });
    expect(updated.data).toMatchObject({ id, description: 'dashboard' });
    const list = await client.rest.GET('/webhooks');
    expect(list.data?.webhooks.map((w) => w.id)).toEqual([id]);
    const deliveries = await client.rest.GET('/webhooks/{id}/deliveries', { params: { path: { id } } });
    expect(deliveries.data?.deliveries).toEqual([]);
    for (let i = 0; i < 4; i++)
      await client.rest.POST('/webhooks', { body: { url: `https://127.0.0.1:9/hook${i}` } });
    const sixth = await rejection(
      client.rest.POST('/webhooks', { body: { url: 'https://127.0.0.1:9/six' } }),
    );
    expect(sixth).toBeInstanceOf(ConflictError);
    expect(sixth).toMatchObject({ status: 409, type: 'conflict_error', code: 'webhook_limit_reached' });
    const deleted = await client.rest.DELETE('/webhooks/{id}', { params: { path: { id } } });
    expect(deleted.data).toMatchObject({ id, deleted: true });
  });

  it('fraud scores and the verified-email challenge (Authentication) answer typed data', async () => {
    const scored = await accountWithToken(app().em());
    const partner = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
    const fraud = await clientOf(app(), partner.token).rest.POST('/fraud/score', {
      body: { email: scored.email },
    });
    expect(fraud.data).toMatchObject({ email: scored.email, score: expect.any(Number) });
    const challenge = await clientOf(app(), undefined).rest.POST('/agent-auth/verified-email/challenge', {
      body: { email: `agent-${randomUUID()}@example.test` },
    });
    expect(challenge.data?.expires_in).toBeGreaterThan(0);
  });

  it('errors are typed: 401, 404, 409, 422 and 400 carry type, code, field paths and the request id', async () => {
    const unknownToken = await rejection(clientOf(app(), 'svc_pat_not-a-token').rest.GET('/me'));
    expect(unknownToken).toBeInstanceOf(AuthenticationError);
    expect(unknownToken).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_token' });
    expect((unknownToken as TributaryError).requestId).toEqual(expect.any(String));

    const poor = await accountWithToken(app().em(), { credits: 10 });
    const client = clientOf(app(), poor.token);
    const missing = await rejection(
      client.rest.GET('/releases/{id}', { params: { path: { id: randomUUID() } } }),
    );
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'release_not_found' });

    const assets = await uploadAssets(client);
    const invalid = submission(assets);
    delete (invalid.tracks[0] as Record<string, unknown>).writers;
    const refused = await rejection(client.rest.POST('/releases', { body: invalid }));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ status: 422, type: 'validation_error', code: 'validation_failed' });
    expect((refused as ValidationError).field).toMatch(/^tracks\[0\]\.writers/);
    expect((refused as ValidationError).requestId).toEqual(expect.any(String));

    const broke = await accountWithToken(app().em(), { credits: 0 });
    const brokeClient = clientOf(app(), broke.token);
    const brokeAssets = await uploadAssets(brokeClient);
    const unpaid = await rejection(brokeClient.rest.POST('/releases', { body: submission(brokeAssets) }));
    expect(unpaid).toBeInstanceOf(ConflictError);
    expect(unpaid).toMatchObject({ status: 409, code: 'insufficient_credits' });

    const plain = await rejection(client.rest.POST('/webhooks', { body: { url: 'http://example.com/h' } }));
    expect(plain).toBeInstanceOf(ValidationError);
    expect(plain).toMatchObject({ status: 400, type: 'invalid_request_error', field: 'url' });
  });

  it('429: a non-idempotent request is never retried; its RateLimitError says when to try again', async () => {
    const account = await accountWithToken(app().em());
    const retries: number[] = [];
    const client = clientOf(app(), account.token, {
      retry: { maxAttempts: 5, onRetry: ({ delayMs }) => retries.push(delayMs) },
    });
    const generated = await client.rest.POST('/cover-art', { body: { prompt: 'waves' } });
    expect(generated.data?.rateLimit.remaining).toBe(4);
    // The other four of the window spent, as if generated: the window ends in 2 s.
    await spendRateLimit(app(), `rl:cover-art:${account.accountId}`, 2);
    const limited = await rejection(client.rest.POST('/cover-art', { body: { prompt: 'one too many' } }));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, type: 'rate_limit_error' });
    expect((limited as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retries).toEqual([]);
  });
});
