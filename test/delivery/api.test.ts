import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('delivery through the API', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });

  it('a submitted release walks queued → pending → delivered → distributed, seen on status, job, tools and the event stream', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    body.release.distribution_store_ids = [301, 302];
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    const { releaseId } = submitted.body;

    const client = createClient({
      url: `${app().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.token}` },
      retryAttempts: 0,
    });
    const events: { type: string; payload: { previousStatus?: string; status?: string } }[] = [];
    await new Promise<void>((resolve) => {
      client.on('connected', () => resolve());
      client.subscribe<{ releaseEvents: { type: string; payload: string } }>(
        {
          query: 'subscription($id: ID) { releaseEvents(releaseId: $id, after: "0") { type payload } }',
          variables: { id: releaseId },
        },
        {
          next: (v) =>
            v.data &&
            events.push({ ...v.data.releaseEvents, payload: JSON.parse(v.data.releaseEvents.payload) }),
          error: () => {},
          complete: () => {},
        },
      );
    });

    const status = async () =>
      (await request(app().url, 'GET', `/v1/releases/${releaseId}/status`, { token: account.token })).body;
    const first = await status();
    expect(first).toMatchObject({ aggregateStatus: 'queued', pending: true, fallback: false });
    expect(
      first.stores.map((s: { storeId: number; statusText: string }) => [s.storeId, s.statusText]),
    ).toEqual([
      [301, 'Queued'],
      [302, 'Queued'],
    ]);
    const job = await request(app().url, 'GET', `/v1/releases/${releaseId}/job`, { token: account.token });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ releaseId, state: 'queued' });

    const clock = new ManualClock(new Date());
    const seen: string[] = [];
    for (let step = 0; step < 4; step++) {
      clock.advance(300);
      await advanceDue(app().em(), clock, app().services.storeAdapters);
      seen.push((await status()).aggregateStatus);
    }
    expect(seen).toEqual(['pending', 'delivered', 'distributed', 'distributed']);
    const live = await status();
    expect(
      live.stores.every(
        (s: { statusText: string; urlInStore: string | null }) => s.statusText === 'Live' && s.urlInStore,
      ),
    ).toBe(true);

    const deadline = Date.now() + 5000;
    while (!events.some((e) => e.type === 'RELEASE_APPROVED') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await client.dispose();
    const moves = events
      .filter((e) => e.type === 'RELEASE_STATUS_CHANGED')
      .map((e) => `${e.payload.previousStatus}→${e.payload.status}`);
    expect(moves).toEqual(['queued→pending', 'pending→delivered', 'delivered→distributed']);
    expect(events.map((e) => e.type)).toContain('RELEASE_APPROVED');

    const rpc = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'check_release_status', arguments: { releaseId } },
      },
    });
    expect(JSON.parse(rpc.body.result.content[0].text)).toMatchObject({
      aggregateStatus: 'distributed',
      pending: false,
    });
    const http = await request(app().url, 'GET', `/api/mcp/release-jobs/${releaseId}`, {
      token: account.token,
    });
    expect(http.body.state).toBe('completed');

    const other = await accountWithToken(app().em());
    const foreign = await request(app().url, 'GET', `/v1/releases/${releaseId}/status`, {
      token: other.token,
    });
    expect(foreign.body.code).toBe('release_not_owned');
  });

  it('a draft has no job yet', async () => {
    const account = await accountWithToken(app().em());
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'x' } },
    });
    const job = await request(app().url, 'GET', `/v1/releases/${draft.body.releaseId}/job`, {
      token: account.token,
    });
    expect(job.status).toBe(404);
    expect(job.body.code).toBe('job_not_found');
  });
});
