import { randomBytes, randomUUID } from 'node:crypto';
import { type Client, createClient } from 'graphql-ws';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase } from '../../src/app-database.ts';
import { RELEASE_EVENT_TYPES } from '../../src/domains/delivery/index.ts';
import { readAccountFacts } from '../../src/domains/fraud/facts.ts';
import { connectStore } from '../../src/domains/store-connections/index.ts';
import { createEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { startRegistryIndexer } from '../../src/workers/registry-indexer.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/database.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { until, waitFor } from '../support/wait.ts';
import { LOOPBACK_OK, outboundFor, type Receiver, startReceiver, tableResolver } from './harness.ts';
import { standardVerifies } from './receivers.ts';

interface StreamEvent {
  id: string;
  type: string;
  releaseId: string;
  status: string;
  test: boolean;
  payload: string;
}

const SUBSCRIPTION = `subscription { releaseEvents { id type releaseId status test payload } }`;

/** A graphql-ws subscriber of the account's `releaseEvents`, as `tributary webhooks listen` is one. */
function subscribe(app: TestApp, token: string) {
  const client: Client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const received: StreamEvent[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<{ releaseEvents: StreamEvent }>(
    { query: SUBSCRIPTION },
    {
      next: (value) => (value.data ? received.push(value.data.releaseEvents) : errors.push(value.errors)),
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  const ready = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  return {
    received,
    errors,
    // Connected, then a moment for the subscription itself to be registered.
    ready: ready.then(() => new Promise((resolve) => setTimeout(resolve, 100))),
    close: async () => {
      stop();
      await client.dispose();
    },
  };
}

const REST_KIND = (type: string) => ({ type });

async function countOf(app: TestApp, sql: string, params: unknown[]): Promise<number> {
  const [row] = await app.em().execute<{ count: number }[]>(sql, params);
  return row?.count ?? -1;
}

describe('sandbox event trigger', () => {
  let receiver: Receiver;
  let app: TestApp;
  let paths = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Background work on: the relay, the webhook dispatcher and sender, the registry indexer.
    app = await startTestApp(
      { OUTBOUND_ALLOW_PRIVATE: 'true' },
      { background: true, services: { webhookOutbound: outboundFor(receiver) } },
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  /** An account with one webhook endpoint at a fresh receiver path, and its signing secret. */
  async function withEndpoint(options: { credits?: number } = {}) {
    const account = await accountWithToken(app.em(), options);
    const path = `/sandbox/${++paths}`;
    const { secret } = await createEndpoint(
      app.em(),
      account.accountId,
      { url: receiver.url(path) },
      {
        policy: LOOPBACK_OK,
        resolver: tableResolver({ 'hooks.test': '127.0.0.1' }),
        secretKey: app.services.webhookSecretKey,
      },
    );
    return { account, path, secret };
  }

  const trigger = (account: AccountFixture, body: Record<string, unknown>) =>
    request(app.url, 'POST', '/v1/sandbox/events', { token: account.token, body });

  async function tool(account: AccountFixture, args: Record<string, unknown>) {
    const response = await request(app.url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'trigger_sandbox_event', arguments: args },
      },
    });
    const { result, error } = response.body;
    return { result: result ? JSON.parse(result.content[0].text) : undefined, error };
  }

  it('each kind reaches a releaseEvents subscriber and a webhook endpoint, of the sample release, which stays as it was', async () => {
    const { account, path, secret } = await withEndpoint();
    const subscriber = subscribe(app, account.token);
    await subscriber.ready;

    const answers = [];
    for (const type of RELEASE_EVENT_TYPES) {
      const answer = await trigger(account, REST_KIND(type));
      expect(answer.status).toBe(201);
      answers.push(answer.body);
    }
    // The same kind again, once the first one SUCCEEDED, is delivered again: a real event identical to one
    // delivered in the last 6 hours would be suppressed, a test event never is.
    const succeeded = () =>
      countOf(
        app,
        `select count(*)::int as count from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          where e.account_id = ? and d.status = 'succeeded'`,
        [account.accountId],
      );
    await waitFor(succeeded, (count) => count === 4, 15_000);
    const again = await trigger(account, REST_KIND('release.status_changed'));
    expect(again.status).toBe(201);
    answers.push(again.body);

    const sampleId: string = answers[0].release_id;
    for (const [index, answer] of answers.entries()) {
      expect(answer).toMatchObject({
        type: [...RELEASE_EVENT_TYPES, 'release.status_changed'][index],
        release_id: sampleId,
        sample_release: true,
        remaining: 9 - index,
      });
      expect(answer.payload).toMatchObject({ event: answer.type, releaseId: sampleId, test: true });
    }

    await until(() => subscriber.received.length >= 5 && receiver.at(path).length >= 5, 15_000);
    await subscriber.close();
    expect(subscriber.errors).toEqual([]);
    // The stream: every event, in order, flagged; its payload is the answer's, byte for byte.
    expect(subscriber.received.map((event) => [event.id, event.type, event.test])).toEqual(
      answers.map((answer) => [answer.event_id, answer.type.toUpperCase().replace('.', '_'), true]),
    );
    for (const [index, event] of subscriber.received.entries()) {
      expect(event.payload).toBe(JSON.stringify(answers[index].payload));
      expect(event.releaseId).toBe(sampleId);
      expect(event.status).toBe('DISTRIBUTED');
    }
    // The endpoint: one signed delivery per event, its body the stream's payload byte for byte.
    const hits = receiver.at(path);
    expect(hits).toHaveLength(5);
    const bodyOf = new Map(subscriber.received.map((event) => [event.payload, event.type]));
    for (const hit of hits) {
      expect(bodyOf.has(hit.body)).toBe(true);
      expect(hit.headers['x-svc-event']).toBe(JSON.parse(hit.body).event);
      expect(standardVerifies(secret, hit)).toBe(true);
    }

    // What each kind says: the sample as it stands (distributed, live at three stores), plus the change
    // of the kind, which is not made.
    const [changed, approved, added, takenDown] = answers.map((answer) => answer.payload);
    expect(changed).toMatchObject({
      title: 'Sandbox Sample',
      artist: 'Lena Marlow',
      previousStatus: 'delivered',
      status: 'distributed',
      artistProfiles: [expect.objectContaining({ name: 'Lena Marlow', isPrimary: true })],
    });
    expect(changed.storeStatuses).toHaveLength(3);
    for (const store of changed.storeStatuses) {
      expect(store).toMatchObject({ statusText: 'Live', urlInStore: expect.stringContaining(sampleId) });
    }
    const storeIds = changed.storeStatuses.map((store: { storeId: number }) => store.storeId);
    expect(approved).toMatchObject({ status: 'distributed', upc: expect.stringMatching(/^\d{12}$/) });
    expect(approved.tracks).toEqual([
      { trackNumber: 1, title: expect.any(String), isrc: expect.stringMatching(/^XXTRB\d{7}$/) },
      { trackNumber: 2, title: expect.any(String), isrc: expect.stringMatching(/^XXTRB\d{7}$/) },
    ]);
    expect(added).toMatchObject({ status: 'distributed', skippedStoreIds: [] });
    expect(added.storeIds).toHaveLength(1);
    expect(storeIds).not.toContain(added.storeIds[0]);
    expect(added.storeStatuses).toEqual([expect.objectContaining({ statusText: 'Queued' })]);
    expect(takenDown).toMatchObject({
      status: 'distributed',
      scope: 'partial',
      storeIds: [storeIds[0]],
      storeStatuses: [expect.objectContaining({ storeId: storeIds[0], statusText: 'Takedown delivered' })],
      remainingStoreIds: storeIds.slice(1),
    });

    const status = await request(app.url, 'GET', `/v1/releases/${sampleId}/status`, { token: account.token });
    expect(status.body).toMatchObject({ aggregateStatus: 'distributed' });
    expect(status.body.stores.map((store: { statusText: string }) => store.statusText)).toEqual([
      'Live',
      'Live',
      'Live',
    ]);
  });

  it('the sample is made once, charged nothing, counted nowhere, and never distributed', async () => {
    const account = await accountWithToken(app.em(), { credits: 3 });
    const first = await trigger(account, REST_KIND('release.approved'));
    const second = await tool(account, { type: 'release.approved' });
    expect(second.error).toBeUndefined();
    expect(second.result).toMatchObject({ release_id: first.body.release_id, sample_release: true });
    const count = await countOf(app, 'select count(*)::int as count from releases where account_id = ?', [
      account.accountId,
    ]);
    expect(count).toBe(1);
    // The release list shows it, and says it is the sample.
    const list = await request(app.url, 'GET', '/v1/releases', { token: account.token });
    expect(list.body.releases).toEqual([
      expect.objectContaining({ id: first.body.release_id, sandbox_sample: true }),
    ]);

    const credits = await request(app.url, 'GET', '/v1/me/credits', { token: account.token });
    expect(credits.body.balance).toBe(3);
    const facts = await readAccountFacts(app.em(), account.accountId, new Date());
    expect(facts).toMatchObject({ submittedReleases: 0, releasesIn24Hours: 0, tracks: 0 });
    const today = new Date().toISOString().slice(0, 10);
    const summary = await request(
      app.url,
      'GET',
      `/v1/analytics/summary?from_date=${today}&to_date=${today}`,
      { token: account.token },
    );
    expect(summary.body.releases).toEqual({ total: 0, withDistributorId: 0 });

    const distribute = await request(app.url, 'POST', `/v1/releases/${first.body.release_id}/distribute`, {
      token: account.token,
      body: { store_ids: ['deezer'] },
    });
    expect(distribute.status).toBe(409);
    expect(distribute.body.code).toBe('sandbox_sample_release');
  });

  it("a caller's own release: GraphQL and the agent tool, the release untouched", async () => {
    const { account, path } = await withEndpoint({ credits: 10 });
    const body = validSubmission(await uploadAssets(app.url, account), 1);
    body.release.distribution_store_ids = [301, 302];
    const submitted = await request(app.url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    const releaseId: string = submitted.body.releaseId;
    const before = await request(app.url, 'GET', `/v1/releases/${releaseId}/job`, { token: account.token });

    const typed = await graphql(
      app.url,
      `mutation($input: TriggerSandboxEventInput!) {
        triggerSandboxEvent(input: $input) { eventId type releaseId sampleRelease payload occurredAt remaining } }`,
      { input: { type: 'RELEASE_STATUS_CHANGED', releaseId } },
      account.token,
    );
    expect(typed.body.errors).toBeUndefined();
    const event = typed.body.data.triggerSandboxEvent;
    expect(event).toMatchObject({
      type: 'RELEASE_STATUS_CHANGED',
      releaseId,
      sampleRelease: false,
      remaining: 9,
    });
    // Just submitted, the release is queued at its two stores: the event says so, and nothing more.
    expect(JSON.parse(event.payload)).toEqual({
      event: 'release.status_changed',
      releaseId,
      title: body.release.title,
      artist: body.release.primary_artist_name,
      previousStatus: 'queued',
      status: 'queued',
      storeStatuses: [
        { storeId: 301, storeName: 'Spotify', statusText: 'Queued' },
        { storeId: 302, storeName: 'Apple Music', statusText: 'Queued' },
      ],
      artistProfiles: expect.any(Array),
      occurredAt: event.occurredAt,
      test: true,
    });

    const approved = await tool(account, { type: 'release.approved', releaseId });
    expect(approved.error).toBeUndefined();
    expect(approved.result).toMatchObject({ type: 'release.approved', release_id: releaseId });
    expect(approved.result.payload).toMatchObject({
      upc: submitted.body.upc ?? expect.any(String),
      test: true,
    });

    await until(() => receiver.at(path).length >= 2, 15_000);
    expect(receiver.at(path).map((hit) => hit.headers['x-svc-event'])).toEqual(
      expect.arrayContaining(['release.status_changed', 'release.approved']),
    );
    const after = await request(app.url, 'GET', `/v1/releases/${releaseId}/job`, { token: account.token });
    expect(after.body).toEqual(before.body);
  });

  it('the registry indexer passes over a test approval, and takes the real one after it', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const stop = startRegistryIndexer({
      pubsub: app.services.pubsub,
      em: () => app.em(),
      storage: app.services.storage,
      logger,
    });
    const indexed = () => lines.filter((line) => line.includes('release indexed in the registry'));
    try {
      const account = await accountWithToken(app.em());
      const test = await trigger(account, REST_KIND('release.approved'));
      expect(test.status).toBe(201);
      // A real approval after it, of a release the indexer finds nothing of: it says so once it ran.
      const realReleaseId = randomUUID();
      await app.em().transactional((em) =>
        appendEvent(em, {
          accountId: account.accountId,
          releaseId: realReleaseId,
          type: 'release.approved',
          payload: { event: 'release.approved', releaseId: realReleaseId },
        }),
      );
      await until(() => indexed().length > 0, 10_000);
      // Releases are indexed one at a time, in the order their events came: the test one would be first.
      expect(indexed().map((line) => JSON.parse(line).releaseId)).toEqual([realReleaseId]);
    } finally {
      await stop();
    }
  });

  it("refuses another account's release (404), a draft (409) and an unknown kind (400), taking no allowance", async () => {
    const owner = await accountWithToken(app.em());
    const stranger = await accountWithToken(app.em());
    const draft = await request(app.url, 'POST', '/v1/drafts', {
      token: owner.token,
      body: { release: { title: 'Not yet' } },
    });
    const releaseId: string = draft.body.releaseId;

    const foreign = await trigger(stranger, { type: 'release.approved', release_id: releaseId });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ type: 'not_found_error', code: 'release_not_owned' });
    const unknown = await trigger(stranger, {
      type: 'release.approved',
      release_id: '3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('release_not_found');
    const byTool = await tool(stranger, { type: 'release.approved', releaseId });
    expect(byTool.error).toMatchObject({ code: 404, data: { code: 'release_not_owned' } });

    const ofDraft = await trigger(owner, { type: 'release.approved', release_id: releaseId });
    expect(ofDraft.status).toBe(409);
    expect(ofDraft.body.code).toBe('release_not_submitted');

    const badKind = await trigger(owner, { type: 'release.published' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.details).toEqual([expect.objectContaining({ path: 'type' })]);

    const count = await countOf(
      app,
      'select count(*)::int as count from outbox_events where account_id in (?, ?)',
      [owner.accountId, stranger.accountId],
    );
    expect(count).toBe(0);
    const allowed = await trigger(stranger, REST_KIND('release.approved'));
    expect(allowed.body.remaining).toBe(9);
  });

  it('is rate limited per account: 10 a minute, then 429 with Retry-After', async () => {
    const account = await accountWithToken(app.em());
    const other = await accountWithToken(app.em());
    for (let n = 0; n < 10; n++) {
      const answer = await trigger(account, REST_KIND('release.stores_added'));
      expect(answer.status).toBe(201);
      expect(answer.headers.get('ratelimit-policy')).toBe('"sandbox-events";q=10;w=60');
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"sandbox-events";r=${9 - n};t=\\d+$`));
    }
    const refused = await trigger(account, REST_KIND('release.stores_added'));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: 'rate_limit_error', retryAfterSeconds: expect.any(Number) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.retryAfterSeconds).toBeLessThanOrEqual(60);
    const count = await countOf(
      app,
      'select count(*)::int as count from outbox_events where account_id = ?',
      [account.accountId],
    );
    expect(count).toBe(10);
    const listed = await request(app.url, 'GET', '/v1/rate-limits', { token: account.token });
    expect(listed.body.rate_limits).toContainEqual(
      expect.objectContaining({ name: 'sandbox-events', action: 'sandbox_event', quota: 10, remaining: 0 }),
    );
    // Another account has an allowance of its own.
    expect((await trigger(other, REST_KIND('release.stores_added'))).status).toBe(201);
  });
});

describe('sandbox event trigger where a store is delivered for real', () => {
  let app: TestApp;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const secretKey = randomBytes(32);
  const env = {
    DDEX_SENDER_DPID: 'PADPIDA2026TRB0001',
    DDEX_SENDER_NAME: 'Tributary',
    WEBHOOK_SECRET_KEY: secretKey.toString('base64'),
  };

  beforeAll(async () => {
    // Store 301 connected over SFTP before the app starts: its adapter is not the sandbox.
    database = await createTestDatabase('sandbox_only');
    const orm = await openDatabase(database.url, 1);
    try {
      await connectStore(
        orm.em.fork(),
        {
          store: '301',
          sftpUrl: 'sftp://tributary@127.0.0.1:2222/incoming',
          credential: { method: 'password', password: randomBytes(12).toString('hex') },
          hostKey: `SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')}`,
          recipientDpid: 'PADPIDA2014120301U',
          recipientName: 'Store 301',
        },
        { secretKey, config: env },
      );
    } finally {
      await orm.close();
    }
    app = await startTestApp({ DATABASE_URL: database.url, ...env });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('is refused on every surface with 409 sandbox_only, and writes nothing', async () => {
    const account = await accountWithToken(app.em());
    const rest = await request(app.url, 'POST', '/v1/sandbox/events', {
      token: account.token,
      body: { type: 'release.status_changed' },
    });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ type: 'conflict_error', code: 'sandbox_only' });
    expect(rest.body.message).toContain('real stores');

    const typed = await graphql(
      app.url,
      'mutation { triggerSandboxEvent(input: { type: RELEASE_APPROVED }) { eventId } }',
      undefined,
      account.token,
    );
    expect(typed.body.errors?.[0]?.extensions).toMatchObject({ code: 'sandbox_only' });

    const viaTool = await request(app.url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'trigger_sandbox_event', arguments: { type: 'release.approved' } },
      },
    });
    expect(viaTool.body.error).toMatchObject({ code: 409, data: { code: 'sandbox_only' } });

    const owned = 'where account_id = ?';
    expect(
      await countOf(app, `select count(*)::int as count from outbox_events ${owned}`, [account.accountId]),
    ).toBe(0);
    expect(
      await countOf(app, `select count(*)::int as count from releases ${owned}`, [account.accountId]),
    ).toBe(0);
  });
});
