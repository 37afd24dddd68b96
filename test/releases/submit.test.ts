import { describe, expect, it } from 'vitest';
import { CreditTransaction } from '../../src/domains/credits/credit-transaction.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('submit', () => {
  const app = useTestApp();

  it('submits in one transaction: release, tracks, artists, the debit and the separate token-offset debit', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = { ...validSubmission(assets, 3), token_offset: true };
    body.tracks[2]!.containsAi = true;
    const response = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body,
      headers: { 'x-svc-provenance': 'partner-x' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: 'submitted',
      aggregateStatus: 'queued',
      pending: true,
      alreadySubmitted: false,
      creditsCharged: 5,
      balanceAfter: 5,
      provenance: 'partner-x',
      tokenOffset: true,
    });
    const { releaseId } = response.body;
    const refs = (
      await app()
        .em()
        .find(CreditTransaction, { account: account.accountId, type: 'debit' }, { orderBy: { seq: 'asc' } })
    ).map((t) => [t.ref, t.amount, t.balanceAfter]);
    expect(refs).toEqual([
      [`release:${releaseId}`, -4, 6],
      [`token_offset:${releaseId}`, -1, 5],
    ]);
    const tracks = await app()
      .em()
      .find(ReleaseTrack, { release: releaseId }, { orderBy: { position: 'asc' } });
    expect(tracks.map((t) => [t.position, t.credits, t.ai])).toEqual([
      [0, 1, false],
      [1, 1, false],
      [2, 2, true],
    ]);

    const read = await request(app().url, 'GET', `/v1/releases/${releaseId}`, { token: account.token });
    expect(read.body).toMatchObject({
      id: releaseId,
      status: 'submitted',
      aggregate_status: 'queued',
      credits_spent: 5,
      provenance: 'partner-x',
    });
    expect(read.body.release.artist_profiles[0]).toMatchObject({
      name: body.release.primary_artist_name,
      isPrimary: true,
    });
    expect(read.body.tracks).toHaveLength(3);
    const list = await request(app().url, 'GET', '/v1/releases?limit=1', { token: account.token });
    expect(list.body.releases.map((r: { id: string }) => r.id)).toEqual([releaseId]);
  });

  it('422 validation_failed names every offending path, and writes nothing', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    body.tracks[0]!.writers = [{ name: '' }];
    body.tracks[1]!.track_type = 'remix';
    body.release.distribution_store_ids = [];
    const response = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    expect(response.status).toBe(422);
    expect(response.body.type).toBe('validation_error');
    expect(response.body.code).toBe('validation_failed');
    const paths = response.body.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'tracks[0].writers[0].name',
        'tracks[1].track_type',
        'release.distribution_store_ids',
      ]),
    );
    expect(await app().em().count(Release, { account: account.accountId })).toBe(0);
    expect(await app().em().count(CreditTransaction, { account: account.accountId, type: 'debit' })).toBe(0);
  });

  it('not enough credits: names the shortfall and the bundle that covers it; nothing written', async () => {
    const account = await accountWithToken(app().em(), { credits: 1 });
    const assets = await uploadAssets(app().url, account);
    const response = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: validSubmission(assets, 3),
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ type: 'conflict_error', code: 'insufficient_credits' });
    expect(response.body.message).toContain('2 short');
    expect(response.body.message).toContain('credits_10');
    expect(await app().em().count(Release, { account: account.accountId })).toBe(0);
    expect((await request(app().url, 'GET', '/v1/me/credits', { token: account.token })).body.balance).toBe(
      1,
    );
  });

  it('never charges twice: re-submitting the release, or retrying with the same Idempotency-Key', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await request(app().url, 'POST', '/v1/releases', { token: account.token, body, headers });
    const retry = await request(app().url, 'POST', '/v1/releases', { token: account.token, body, headers });
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      releaseId: first.body.releaseId,
      alreadySubmitted: true,
      creditsCharged: 0,
      balanceAfter: 8,
    });
    const resubmit = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: { ...body, release_id: first.body.releaseId },
    });
    expect(resubmit.body).toMatchObject({
      releaseId: first.body.releaseId,
      alreadySubmitted: true,
      creditsCharged: 0,
    });
    const reused = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: validSubmission(assets, 1),
      headers,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect((await request(app().url, 'GET', '/v1/me/credits', { token: account.token })).body.balance).toBe(
      8,
    );
  });

  it('a used Idempotency-Key answers before the rules: its replay, or key reused for a broken body', async () => {
    // The key's row is read while the body is checked; what the key says still comes first.
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 2);
    const headers = { 'idempotency-key': 'key-first' };
    const first = await request(app().url, 'POST', '/v1/releases', { token: account.token, body, headers });
    expect(first.status).toBe(201);
    const broken = validSubmission(assets, 2);
    broken.tracks[0]!.writers = [{ name: '' }];
    const reused = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: broken,
      headers,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    // Without the key, the same broken body is refused by the rules.
    const unkeyed = await request(app().url, 'POST', '/v1/releases', { token: account.token, body: broken });
    expect(unkeyed.status).toBe(422);
    const replay = await request(app().url, 'POST', '/v1/releases', { token: account.token, body, headers });
    expect(replay.body).toMatchObject({ releaseId: first.body.releaseId, alreadySubmitted: true });
  });

  it('an Idempotency-Key is kept 24 hours: then the same key is a new submission', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const headers = { 'idempotency-key': 'day-old' };
    const first = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: validSubmission(assets, 2),
      headers,
    });
    expect(first.status).toBe(201);
    const age = async (hours: number) =>
      app()
        .em()
        .execute(
          `update idempotency_keys set created_at = now() - make_interval(hours => ?) where account_id = ? and key = ?`,
          [hours, account.accountId, 'day-old'],
        );
    const other = validSubmission(assets, 1);
    await age(23);
    const within = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: other,
      headers,
    });
    expect(within.body.code).toBe('idempotency_key_reused');
    await age(25);
    const after = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: other,
      headers,
    });
    expect(after.status).toBe(201);
    expect(after.body).toMatchObject({ alreadySubmitted: false, creditsCharged: 1, balanceAfter: 7 });
    expect(after.body.releaseId).not.toBe(first.body.releaseId);
    // The key now stands for the new submission.
    const replay = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: other,
      headers,
    });
    expect(replay.body).toMatchObject({ releaseId: after.body.releaseId, alreadySubmitted: true });
  });

  it('submits a draft by release_id, and by conversation_id; provenance defaults to MCP', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { ...body, conversation_id: 'c-9' },
    });
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: { ...body, conversation_id: 'c-9' },
    });
    expect(submitted.body).toMatchObject({
      releaseId: draft.body.releaseId,
      provenance: 'MCP',
      creditsCharged: 1,
    });
    const redraft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release_id: draft.body.releaseId, release: { title: 'x' } },
    });
    expect(redraft.body.code).toBe('release_already_submitted');
  });

  it('the agent tool and the agent HTTP endpoint submit the same way', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    const rpc = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'submit_release', arguments: { ...body, provenance: 'agent-partner' } },
      },
    });
    const viaTool = JSON.parse(rpc.body.result.content[0].text);
    expect(viaTool).toMatchObject({ status: 'submitted', creditsCharged: 1, provenance: 'agent-partner' });
    const http = await request(app().url, 'POST', '/api/mcp/submit', {
      token: account.token,
      body: validSubmission(assets, 2),
    });
    expect(http.status).toBe(201);
    expect(http.body).toMatchObject({ status: 'submitted', creditsCharged: 2 });
    const invalid = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'submit_release', arguments: { release: {}, tracks: [] } },
      },
    });
    expect(invalid.body.error).toMatchObject({
      code: 422,
      data: { type: 'validation_error', code: 'validation_failed' },
    });
  });
});
