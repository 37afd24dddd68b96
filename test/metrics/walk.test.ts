import { describe, expect, it } from 'vitest';
import { ADVANCE_QUEUE } from '../../src/domains/delivery/schedule.ts';
import { queues } from '../../src/queues.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { startProcessWorld, useCleanup } from '../support/process-world.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { startServerProcess } from '../support/server-process.ts';
import { until } from '../support/wait.ts';
import { parseMetrics, sampleValue } from './scrape.ts';

const cleanup = useCleanup();

const rpc = (url: string, token: string | undefined, params: Record<string, unknown>) =>
  request(url, 'POST', '/api/mcp', { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params } });

describe('GET /metrics after a walk through the API', () => {
  it('has every family, with the walk counted in it', async () => {
    const { receiver, orm, env } = await startProcessWorld(cleanup, 'metrics', 2);
    const server = await startServerProcess({ ...env, DATABASE_POOL_MAX: '7' });
    cleanup.push(() => server.stop());
    const account = await accountWithToken(orm.em.fork(), { credits: 10 });

    // REST (twice with one token: a verified-token cache miss, then hits), GraphQL, an agent tool.
    expect((await request(server.url, 'GET', '/v1/me', { token: account.token })).status).toBe(200);
    expect((await request(server.url, 'GET', '/v1/me', { token: account.token })).status).toBe(200);
    const hook = await request(server.url, 'POST', '/v1/webhooks', {
      token: account.token,
      body: { url: receiver.url('/hook') },
    });
    expect(hook.status).toBe(201);
    expect((await graphql(server.url, 'query Profile { me { email } }', {}, account.token)).body.errors).toBe(
      undefined,
    );
    expect((await graphql(server.url, '{ me { email } }', {}, account.token)).body.errors).toBe(undefined);
    const tool = await rpc(server.url, account.token, { name: 'get_credits', arguments: {} });
    expect(tool.body.error).toBe(undefined);

    // Errors: a missing token (REST), an unknown route, an unknown tool, a GraphQL field that is not there.
    expect((await request(server.url, 'GET', '/v1/me')).status).toBe(401);
    expect((await request(server.url, 'GET', '/v1/no-such-route', { token: account.token })).status).toBe(
      404,
    );
    expect(
      (await rpc(server.url, account.token, { name: 'no_such_tool', arguments: {} })).body.error,
    ).toBeDefined();
    expect((await graphql(server.url, 'query Broken { nope }', {}, account.token)).body.errors).toBeDefined();
    // Names a stranger sends do not earn a series: counted as anonymous.
    expect((await graphql(server.url, 'query StrangerJunk { __typename }', {})).body.errors).toBeUndefined();

    // A submission: events through the relay, webhook deliveries, and delivery steps (pg-boss jobs).
    const assets = await uploadAssets(server.url, account);
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [301];
    const submitted = await request(server.url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    await until(() => receiver.hits.some((h) => h.headers['x-svc-event'] === 'release.approved'), 30_000);
    expect(receiver.hits.length).toBeGreaterThan(0);
    const statusPath = `/v1/releases/${submitted.body.releaseId}/status`;
    expect((await request(server.url, 'GET', statusPath, { token: account.token })).status).toBe(200);

    // The webhook sender records a round's outcomes after its POSTs, and the sandbox's steps go on
    // writing events for a few seconds: scrape until a delivery has succeeded and the relay and the
    // webhook worker have caught up (nothing unpublished, no delivery due).
    let samples = parseMetrics('');
    const settled = () =>
      (sampleValue(samples, 'tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' }) ?? 0) >
        0 &&
      sampleValue(samples, 'tributary_outbox_unpublished', { measure: 'events' }) === 0 &&
      sampleValue(samples, 'tributary_webhook_queue_depth', { state: 'due' }) === 0;
    for (let attempt = 0; attempt < 60 && !settled(); attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 250));
      const scraped = await request(server.url, 'GET', '/metrics');
      expect(scraped.status).toBe(200);
      samples = parseMetrics(scraped.body as string);
    }
    const value = (name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels);

    // Requests and latency, per surface and operation.
    const requests = 'tributary_requests_total';
    const duration = 'tributary_request_duration_seconds';
    expect(value(requests, { surface: 'rest', operation: 'getProfile', outcome: 'ok' })).toBe(2);
    expect(value(requests, { surface: 'rest', operation: 'getProfile', outcome: 'error' })).toBe(1);
    expect(value(`${duration}_count`, { surface: 'rest', operation: 'getProfile' })).toBe(3);
    expect(value(`${duration}_sum`, { surface: 'rest', operation: 'getProfile' })).toBeGreaterThan(0);
    expect(value(`${duration}_sum`, { surface: 'rest', operation: 'getProfile' })).toBeLessThan(30);
    expect(value(`${duration}_bucket`, { surface: 'rest', operation: 'getProfile', le: '+Inf' })).toBe(3);
    expect(value(requests, { surface: 'rest', operation: 'createWebhook', outcome: 'ok' })).toBe(1);
    expect(value(requests, { surface: 'rest', operation: 'submitRelease', outcome: 'ok' })).toBe(1);
    expect(value(requests, { surface: 'rest', operation: 'unknown', outcome: 'error' })).toBe(1);
    expect(value(requests, { surface: 'graphql', operation: 'Profile', outcome: 'ok' })).toBe(1);
    expect(value(requests, { surface: 'graphql', operation: 'anonymous', outcome: 'ok' })).toBe(2); // + StrangerJunk
    expect(value(requests, { surface: 'graphql', operation: 'Broken', outcome: 'error' })).toBeUndefined();
    expect(value(requests, { surface: 'graphql', operation: 'anonymous', outcome: 'error' })).toBe(1);
    expect(value(requests, { surface: 'graphql', operation: 'StrangerJunk', outcome: 'ok' })).toBeUndefined();
    expect(value(`${duration}_count`, { surface: 'graphql', operation: 'Profile' })).toBe(1);
    expect(value(requests, { surface: 'agent_tool', operation: 'get_credits', outcome: 'ok' })).toBe(1);
    expect(value(requests, { surface: 'agent_tool', operation: 'unknown', outcome: 'error' })).toBe(1);
    expect(value(`${duration}_count`, { surface: 'agent_tool', operation: 'get_credits' })).toBe(1);
    // Label values are the closed set: nothing a client named became a series.
    const operations = new Set(samples.filter((s) => s.name === requests).map((s) => s.labels.operation));
    expect(operations.has('no_such_tool')).toBe(false);
    expect(operations.has('no-such-route')).toBe(false);

    // Errors by type.
    expect(value('tributary_errors_total', { surface: 'rest', type: 'authentication_error' })).toBe(1);
    expect(value('tributary_errors_total', { surface: 'rest', type: 'not_found_error' })).toBe(1);
    expect(value('tributary_errors_total', { surface: 'agent_tool', type: 'invalid_request_error' })).toBe(1);
    expect(value('tributary_errors_total', { surface: 'graphql', type: 'invalid_request_error' })).toBe(1);

    // The relay published the submission's events, a moment after they were written.
    const relayed = value('tributary_event_relay_lag_seconds_count') ?? 0;
    expect(relayed).toBeGreaterThanOrEqual(2);
    expect((value('tributary_event_relay_lag_seconds_sum') ?? -1) / relayed).toBeLessThan(5);
    // Caught up: nothing unpublished, so no oldest age either.
    expect(value('tributary_outbox_unpublished', { measure: 'events' })).toBe(0);
    expect(value('tributary_outbox_unpublished', { measure: 'oldest_age_seconds' })).toBe(0);

    // Webhooks: deliveries created and sent; the queue's depth.
    expect(value('tributary_webhook_deliveries_created_total', { status: 'pending' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      value('tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(1);
    // Every delivery sent, and none waiting for a retry: the receiver accepts them all.
    expect(value('tributary_webhook_queue_depth', { state: 'due' })).toBe(0);
    expect(value('tributary_webhook_queue_depth', { state: 'scheduled' })).toBe(0);

    // pg-boss: every queue of the app, in every state (counts as its monitor last took them), and no
    // job of the walk failed.
    for (const queue of queues) {
      for (const state of ['ready', 'deferred', 'active']) {
        const jobs = value('tributary_job_queue_jobs', { queue: queue.name, state });
        expect(Number.isInteger(jobs), `${queue.name} ${state}: ${jobs}`).toBe(true);
      }
      expect(value('tributary_job_queue_jobs', { queue: queue.name, state: 'failed' }), queue.name).toBe(0);
    }
    expect(queues.map((queue) => queue.name)).toContain(ADVANCE_QUEUE);

    // Caches: the second /v1/me was answered from the verified-token cache; the first profile and the
    // first release status read were misses.
    expect(value('tributary_cache_hits_total', { cache: 'verified-tokens' })).toBeGreaterThanOrEqual(1);
    expect(value('tributary_cache_misses_total', { cache: 'verified-tokens' })).toBeGreaterThanOrEqual(1);
    expect(value('tributary_cache_misses_total', { cache: 'profile' })).toBeGreaterThanOrEqual(1);
    expect(value('tributary_cache_misses_total', { cache: 'release-status' })).toBeGreaterThanOrEqual(1);

    // The database pool of this process.
    expect(value('tributary_db_pool_connections', { state: 'max' })).toBe(7);
    const open = value('tributary_db_pool_connections', { state: 'open' }) ?? -1;
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(7);
    const idle = value('tributary_db_pool_connections', { state: 'idle' }) ?? -1;
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle + (value('tributary_db_pool_connections', { state: 'in_use' }) ?? -1)).toBe(open);
    // Requests queued for a connection: the scrape's own gauge queries may be some of them.
    expect(Number.isInteger(value('tributary_db_pool_connections', { state: 'waiting' }))).toBe(true);

    // The process's own (prom-client's defaults).
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  }, 120_000);
});
