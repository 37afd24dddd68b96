import { describe, expect, it } from 'vitest';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { OutboxEvent } from '../../src/platform/events/outbox-event.entity.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const STEP = 300;

describe('store operations through the API', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: String(STEP) });

  const call = (account: AccountFixture, method: string, path: string, body?: unknown) =>
    request(app().url, method, `/v1${path}`, {
      token: account.token,
      ...(body === undefined ? {} : { body }),
    });

  async function tool(account: AccountFixture, name: string, args: Record<string, unknown>) {
    const response = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    const { result, error } = response.body;
    return { result: result ? JSON.parse(result.content[0].text) : undefined, error };
  }

  const clock = new ManualClock(new Date());
  /** Moves the sandbox one step past every step scheduled so far (the API schedules on system time). */
  async function step() {
    const now = Date.now();
    if (clock.now().getTime() < now) clock.set(new Date(now));
    clock.advance(STEP);
    await advanceDue(app().em(), clock, app().services.storeAdapters);
  }

  async function draft(account: AccountFixture): Promise<string> {
    const saved = await call(account, 'POST', '/drafts', { release: { title: 'Draft only' } });
    expect(saved.status).toBe(200);
    return saved.body.releaseId;
  }

  /** A release submitted to 301 and 302 and walked to `distributed`. */
  async function distributedRelease(account: AccountFixture): Promise<string> {
    const body = validSubmission(await uploadAssets(app().url, account), 1);
    body.release.distribution_store_ids = [301, 302];
    const submitted = await call(account, 'POST', '/releases', body);
    expect(submitted.status).toBe(201);
    for (let i = 0; i < 3; i++) await step();
    const status = await call(account, 'GET', `/releases/${submitted.body.releaseId}/status`);
    expect(status.body.aggregateStatus).toBe('distributed');
    return submitted.body.releaseId;
  }

  const statusTexts = async (account: AccountFixture, releaseId: string) =>
    Object.fromEntries(
      (await call(account, 'GET', `/releases/${releaseId}/status`)).body.stores.map(
        (s: { storeId: number; statusText: string }) => [s.storeId, s.statusText],
      ),
    );

  const eventTypes = async (releaseId: string) =>
    (
      await app()
        .em()
        .find(OutboxEvent, { releaseId }, { orderBy: { id: 'asc' } })
    ).map((e) => e.type);

  it('distribute and takedown answer 409 before submission', async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);
    const distribute = await call(account, 'POST', `/releases/${releaseId}/distribute`, { store_ids: [301] });
    expect(distribute.status).toBe(409);
    expect(distribute.body).toMatchObject({ type: 'conflict_error', code: 'release_not_submitted' });
    const takedown = await call(account, 'POST', `/releases/${releaseId}/takedown`);
    expect(takedown.status).toBe(409);
    expect(takedown.body.code).toBe('release_not_submitted');
    const viaTool = await tool(account, 'takedown_release', { releaseId, storeIds: 'all' });
    expect(viaTool.error).toMatchObject({ code: 409, data: { code: 'release_not_submitted' } });
  });

  it('distribute adds stores to a live release: queued, skipped, 403 unknown, then live', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const releaseId = await distributedRelease(account);

    const unknown = await call(account, 'POST', `/releases/${releaseId}/distribute`, {
      store_ids: [308, 999],
    });
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ type: 'permission_error', code: 'store_not_available' });
    const empty = await call(account, 'POST', `/releases/${releaseId}/distribute`, { store_ids: [] });
    expect(empty.status).toBe(400);

    const added = await call(account, 'POST', `/releases/${releaseId}/distribute`, {
      store_ids: [308, 'content-id', 301],
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      release_id: releaseId,
      queued_store_ids: [308],
      skippedStoreIds: [
        { storeId: 301, storeName: 'Spotify', reason: 'already_delivered' },
        { storeId: 307, storeName: 'YouTube Content ID', reason: 'partner_approval_required' },
      ],
    });
    expect(typeof added.body.note).toBe('string');
    expect(await eventTypes(releaseId)).toContain('release.stores_added');
    const storesAdded = await app()
      .em()
      .findOneOrFail(OutboxEvent, { releaseId, type: 'release.stores_added' });
    expect(storesAdded.payload).toMatchObject({ storeIds: [308] });
    expect((await statusTexts(account, releaseId))[308]).toBe('Queued');

    await step(); // in inspection
    await step(); // delivered
    expect((await statusTexts(account, releaseId))[308]).toBe('Delivered to DSP');
    await step(); // live
    const status = await call(account, 'GET', `/releases/${releaseId}/status`);
    expect(status.body.aggregateStatus).toBe('distributed');
    expect(status.body.stores.find((s: { storeId: number }) => s.storeId === 308)).toMatchObject({
      statusText: 'Live',
      urlInStore: expect.any(String),
    });

    const viaTool = await tool(account, 'add_release_stores', { releaseId, storeIds: ['tidal', 311] });
    expect(viaTool.result).toMatchObject({
      releaseId,
      queuedStoreIds: [311],
      skippedStoreIds: [{ storeId: 308, reason: 'already_delivered' }],
    });

    const other = await accountWithToken(app().em());
    const foreign = await call(other, 'POST', `/releases/${releaseId}/distribute`, { store_ids: [306] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('release_not_owned');
  });

  it('takedown: partial, irreversible, then the rest with an empty body; events once confirmed', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const releaseId = await distributedRelease(account);

    const partial = await call(account, 'POST', `/releases/${releaseId}/takedown`, { store_ids: [302, 306] });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({
      release_id: releaseId,
      requested_store_ids: [302],
      skippedStoreIds: [{ storeId: 306, storeName: 'Deezer', reason: 'not_delivered' }],
    });
    expect(partial.body.note).toMatch(/cannot be cancelled/);
    expect((await statusTexts(account, releaseId))[302]).toBe('Takedown requested');
    const pending = await call(account, 'POST', `/releases/${releaseId}/takedown`, {
      store_ids: ['apple-music'],
    });
    expect(pending.body).toMatchObject({
      requested_store_ids: [],
      skippedStoreIds: [{ storeId: 302, reason: 'takedown_pending' }],
    });
    expect(await eventTypes(releaseId)).not.toContain('release.takedown_completed');

    await step();
    expect(await eventTypes(releaseId)).toContain('release.takedown_completed');
    expect(await statusTexts(account, releaseId)).toEqual({ 301: 'Live', 302: 'Takedown delivered' });
    expect((await call(account, 'GET', `/releases/${releaseId}/status`)).body.aggregateStatus).toBe(
      'distributed',
    );

    // Taken down stays down: further steps do not move it, and asking again reports it skipped.
    await step();
    expect((await statusTexts(account, releaseId))[302]).toBe('Takedown delivered');
    const again = await call(account, 'POST', `/releases/${releaseId}/takedown`, { store_ids: [302] });
    expect(again.body.skippedStoreIds).toEqual([
      { storeId: 302, storeName: 'Apple Music', reason: 'already_taken_down' },
    ]);

    const rest = await call(account, 'POST', `/releases/${releaseId}/takedown`); // empty body = all
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ requested_store_ids: [301], skippedStoreIds: [] });
    await step();
    expect((await call(account, 'GET', `/releases/${releaseId}/status`)).body.aggregateStatus).toBe(
      'taken_down',
    );
    const completed = await app()
      .em()
      .find(OutboxEvent, { releaseId, type: 'release.takedown_completed' }, { orderBy: { id: 'asc' } });
    expect(completed.map((e) => (e.payload as { scope: string }).scope)).toEqual(['partial', 'full']);

    const nothing = await call(account, 'POST', `/releases/${releaseId}/takedown`, { store_ids: 'all' });
    expect(nothing.body).toMatchObject({ requested_store_ids: [], skippedStoreIds: [] });
    const bad = await call(account, 'POST', `/releases/${releaseId}/takedown`, { store_ids: 'everything' });
    expect(bad.status).toBe(400);
  });

  it('takedown "all" through the tool is destructive and takes every store', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const releaseId = await distributedRelease(account);
    const list = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const row = list.body.result.tools.find((t: { name: string }) => t.name === 'takedown_release');
    expect(row.annotations.destructiveHint).toBe(true);
    const taken = await tool(account, 'takedown_release', { releaseId, storeIds: 'all' });
    expect(taken.result).toMatchObject({ releaseId, requestedStoreIds: [301, 302], skippedStoreIds: [] });
  });

  it('PUT stores: aliases, ignored unknown ids, null reset, all-invalid 400; tool output keys', async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);

    const set = await call(account, 'PUT', `/releases/${releaseId}/stores`, {
      store_ids: ['spotify', 'TIDAL', 301, 'nope'],
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ ok: true, release_id: releaseId, distribution_store_ids: [301, 308] });
    expect(set.body.note).toContain('nope');
    const stored = await app().em().findOneOrFail(Release, { id: releaseId });
    expect(stored.distributionStoreIds).toEqual([301, 308]);
    expect(stored.payload.release.distribution_store_ids).toEqual([301, 308]);
    expect((await call(account, 'GET', `/releases/${releaseId}`)).body.distribution_store_ids).toEqual([
      301, 308,
    ]);

    const reset = await call(account, 'PUT', `/releases/${releaseId}/stores`, { store_ids: null });
    expect(reset.body).toMatchObject({ ok: true, distribution_store_ids: null });

    const invalid = await call(account, 'PUT', `/releases/${releaseId}/stores`, { store_ids: ['nope', 999] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.type).toBe('invalid_request_error');
    expect(invalid.body.message).toContain('get_distribution_stores');
    expect(invalid.body.message).toContain('/v1/distribution-stores');
    const missing = await call(account, 'PUT', `/releases/${releaseId}/stores`, {});
    expect(missing.status).toBe(400);

    const viaTool = await tool(account, 'set_distribution_stores', { releaseId, storeIds: [306, 302] });
    expect(Object.keys(viaTool.result)).toEqual(['ok', 'releaseId', 'distributionStoreIds', 'note']);
    expect(viaTool.result).toMatchObject({ ok: true, releaseId, distributionStoreIds: [302, 306] });
    const toolReset = await tool(account, 'set_distribution_stores', { releaseId, storeIds: null });
    expect(toolReset.result.distributionStoreIds).toBeNull();
    const toolInvalid = await tool(account, 'set_distribution_stores', { releaseId, storeIds: [999] });
    expect(toolInvalid.error.code).toBe(400);
    expect(toolInvalid.error.message).toContain('get_distribution_stores');

    const other = await accountWithToken(app().em());
    const foreign = await call(other, 'PUT', `/releases/${releaseId}/stores`, { store_ids: [301] });
    expect(foreign.body.code).toBe('release_not_owned');
  });
});
