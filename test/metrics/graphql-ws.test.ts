import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';
import { parseMetrics, sampleValue } from './scrape.ts';

const app = useTestApp();

async function scrape(name: string, labels: Record<string, string> = {}) {
  return sampleValue(parseMetrics(await app().services.metrics.registry.metrics()), name, labels) ?? 0;
}

describe('graphql-ws in the metrics', () => {
  it('counts connections, operations by type and the operations still open; errors by type', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const { releaseId } = (
      await request(app().url, 'POST', '/v1/releases', {
        token: account.token,
        body: validSubmission(assets, 1),
      })
    ).body;
    const client = createClient({
      url: `${app().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.token}` },
      retryAttempts: 0,
    });
    const errors: unknown[] = [];
    client.subscribe(
      {
        query: 'subscription($id: ID) { releaseEvents(releaseId: $id, after: "0") { type } }',
        variables: { id: releaseId },
      },
      { next: () => {}, error: (e) => errors.push(e), complete: () => {} },
    );
    client.subscribe(
      { query: 'subscription { releaseEvents(releaseId: "not-a-release-id") { type } }' },
      { next: (v) => v.errors && errors.push(v.errors), error: (e) => errors.push(e), complete: () => {} },
    );
    const open = await waitFor(
      () => scrape('tributary_graphql_ws_open_operations'),
      (value) => value === 1,
      10_000,
    );
    expect(open).toBe(1);
    expect(await scrape('tributary_graphql_ws_connections')).toBe(1);
    expect(
      await scrape('tributary_graphql_ws_operations_total', { type: 'subscription' }),
    ).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => errors.length,
      (count) => count === 1,
      10_000,
    );
    expect(await scrape('tributary_errors_total', { surface: 'graphql' })).toBeGreaterThanOrEqual(1);

    await client.dispose();
    const closed = await waitFor(
      async () => [
        await scrape('tributary_graphql_ws_open_operations'),
        await scrape('tributary_graphql_ws_connections'),
      ],
      ([operations, connections]) => operations === 0 && connections === 0,
      10_000,
    );
    expect(closed).toEqual([0, 0]);
  });
});
