import { describe, expect, it } from 'vitest';
import { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('UGC policies through the API', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });

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

  async function draft(account: AccountFixture): Promise<string> {
    const saved = await call(account, 'POST', '/drafts', { release: { title: 'UGC draft' } });
    return saved.body.releaseId;
  }

  const policyOf = (body: { policies: { store_id: number; policy: string; is_default: boolean }[] }) =>
    Object.fromEntries(body.policies.map((p) => [p.store_id, [p.policy, p.is_default]]));

  it('GET fills in the defaults and lists the selectable codes of 307, 310 and 319', async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);
    const got = await call(account, 'GET', `/releases/${releaseId}/ugc-policies`);
    expect(got.status).toBe(200);
    expect(got.body.release_id).toBe(releaseId);
    expect(got.body.policies.map((p: { store_id: number }) => p.store_id)).toEqual([307, 310, 319]);
    expect(got.body.policies[0]).toEqual({
      store_id: 307,
      store_name: 'YouTube Content ID',
      aliases: ['youtube-content-id', 'content-id'],
      policy: 'monetize',
      is_default: true,
      selectable: [
        { code: 'monetize', label: 'Monetize', description: expect.any(String) },
        { code: 'track', label: 'Track', description: expect.any(String) },
      ],
      default_code: 'monetize',
    });
    expect(policyOf(got.body)).toEqual({
      307: ['monetize', true],
      310: ['claim_ad_earnings', true],
      319: ['monetize', true],
    });
    expect(got.body.policies[2].selectable.map((c: { code: string }) => c.code)).toEqual([
      'monetize',
      'library_only',
      'block',
    ]);
  });

  it('PUT by id and by alias, null resets, bad codes and non-UGC stores are 400s', async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);
    const put = (policies: unknown) =>
      call(account, 'PUT', `/releases/${releaseId}/ugc-policies`, { policies });

    const set = await put({ 307: 'track', facebook: 'block', TikTok: 'library_only' });
    expect(set.status).toBe(200);
    expect(policyOf(set.body)).toEqual({
      307: ['track', false],
      310: ['block', false],
      319: ['library_only', false],
    });
    const stored = await app().em().findOneOrFail(Release, { id: releaseId });
    expect(stored.ugcPolicies).toEqual({ 307: 'track', 310: 'block', 319: 'library_only' });

    const reset = await put({ 'content-id': null, 310: 'monitor' });
    expect(policyOf(reset.body)).toEqual({
      307: ['monetize', true],
      310: ['monitor', false],
      319: ['library_only', false],
    });
    expect(policyOf((await call(account, 'GET', `/releases/${releaseId}/ugc-policies`)).body)).toEqual(
      policyOf(reset.body),
    );

    const badCode = await put({ 307: 'block' });
    expect(badCode.status).toBe(400);
    expect(badCode.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_ugc_policies' });
    expect(badCode.body.message).toContain('monetize, track');
    expect(badCode.body.details).toEqual([
      { path: 'policies.307', message: expect.stringContaining('track') },
    ]);

    const notUgc = await put({ spotify: 'monetize' });
    expect(notUgc.status).toBe(400);
    expect(notUgc.body.details[0].path).toBe('policies.spotify');
    expect(notUgc.body.message).toMatch(/307.*310.*319/);
    const unknown = await put({ 999: 'monetize' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].path).toBe('policies.999');
    const notObject = await put(['monetize']);
    expect(notObject.status).toBe(400);
    const missing = await call(account, 'PUT', `/releases/${releaseId}/ugc-policies`, {});
    expect(missing.status).toBe(400);
    // A rejected request changes nothing.
    expect(policyOf((await call(account, 'GET', `/releases/${releaseId}/ugc-policies`)).body)).toEqual(
      policyOf(reset.body),
    );

    const all = await put({ 310: null, 319: null });
    expect(all.body.policies.every((p: { is_default: boolean }) => p.is_default)).toBe(true);
    expect((await app().em().findOneOrFail(Release, { id: releaseId })).ugcPolicies).toBeNull();
  });

  it("another account's release is not found as not owned; malformed ids are 400", async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);
    const other = await accountWithToken(app().em());
    const read = await call(other, 'GET', `/releases/${releaseId}/ugc-policies`);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('release_not_owned');
    const write = await call(other, 'PUT', `/releases/${releaseId}/ugc-policies`, {
      policies: { 307: 'track' },
    });
    expect(write.body.code).toBe('release_not_owned');
    expect((await app().em().findOneOrFail(Release, { id: releaseId })).ugcPolicies).toBeNull();
    const malformed = await call(account, 'GET', '/releases/not-a-uuid/ugc-policies');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_release_id');
  });

  it('the agent tools read and write the same policies', async () => {
    const account = await accountWithToken(app().em());
    const releaseId = await draft(account);
    const set = await tool(account, 'set_ugc_policies', { releaseId, policies: { tiktok: 'block' } });
    expect(set.result.releaseId).toBe(releaseId);
    expect(set.result.policies[2]).toMatchObject({ storeId: 319, policy: 'block', isDefault: false });
    const got = await tool(account, 'get_ugc_policies', { releaseId });
    expect(got.result).toEqual(set.result);
    const bad = await tool(account, 'set_ugc_policies', { releaseId, policies: { tiktok: 'track' } });
    expect(bad.error.code).toBe(400);
    expect(bad.error.message).toContain('monetize, library_only, block');
  });

  it('a stored policy applies when the release is distributed to the store', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const body = validSubmission(await uploadAssets(app().url, account), 1);
    body.release.distribution_store_ids = [301];
    const submitted = await call(account, 'POST', '/releases', body);
    expect(submitted.status).toBe(201);
    const releaseId = submitted.body.releaseId;
    await call(account, 'PUT', `/releases/${releaseId}/ugc-policies`, { policies: { tiktok: 'block' } });

    const added = await call(account, 'POST', `/releases/${releaseId}/distribute`, { store_ids: [319, 310] });
    expect(added.body.queued_store_ids).toEqual([310, 319]);
    const deliveries = await app()
      .em()
      .find(Delivery, { release: releaseId, storeId: { $in: [310, 319] } }, { orderBy: { storeId: 'asc' } });
    expect(deliveries.map((d) => [d.storeId, d.ugcPolicy])).toEqual([
      [310, 'claim_ad_earnings'],
      [319, 'block'],
    ]);
  });

  it('a policy chosen on a draft is applied when the release is first submitted', async () => {
    const account = await accountWithToken(app().em(), { credits: 5 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [319, 310];
    const draft = await request(app().url, 'POST', '/v1/drafts', { token: account.token, body });
    const put = await request(app().url, 'PUT', `/v1/releases/${draft.body.releaseId}/ugc-policies`, {
      token: account.token,
      body: { policies: { tiktok: 'library_only' } },
    });
    expect(put.status).toBe(200);
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: { ...body, release_id: draft.body.releaseId },
    });
    expect(submitted.status).toBe(201);
    const rows = await app()
      .em()
      .find(Delivery, { release: draft.body.releaseId }, { orderBy: { storeId: 'asc' } });
    expect(rows.map((d) => [d.storeId, d.ugcPolicy])).toEqual([
      [310, 'claim_ad_earnings'],
      [319, 'library_only'],
    ]);
  });
});
