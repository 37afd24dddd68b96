import { describe, expect, it } from 'vitest';
import { WebhookEndpoint } from '../../src/domains/webhooks/index.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('webhook endpoints on REST', () => {
  const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });

  it('create answers 201 with the signing secret once; reads never show it; the row holds none', async () => {
    const account = await accountWithToken(app().em());
    const created = await request(app().url, 'POST', '/v1/webhooks', {
      token: account.token,
      body: { url: 'https://127.0.0.1:9/hook', description: 'ci' },
    });
    expect(created.status).toBe(201);
    const secret = created.body.signing_secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(created.body.endpoint).toMatchObject({
      url: 'https://127.0.0.1:9/hook',
      active: true,
      failure_count: 0,
      event_types: [
        'release.status_changed',
        'release.approved',
        'release.stores_added',
        'release.takedown_completed',
      ],
    });
    const list = await request(app().url, 'GET', '/v1/webhooks', { token: account.token });
    expect(list.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(8));
    const row = await app()
      .em()
      .getConnection()
      .execute('select * from webhook_endpoints where id = ?', [created.body.endpoint.id]);
    expect(JSON.stringify(row)).not.toContain(secret.slice(8));
    const rpcSchema = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: { query: '{ webhookEndpoints { id secretPrefix } }' },
    });
    expect(JSON.stringify(rpcSchema.body)).not.toContain(secret.slice(8));
    expect(await app().em().count(WebhookEndpoint, { account: account.accountId })).toBe(1);
  });

  it("https only (400), at most 5 (409), another account's id is 404, PATCH re-enables", async () => {
    const account = await accountWithToken(app().em());
    const plain = await request(app().url, 'POST', '/v1/webhooks', {
      token: account.token,
      body: { url: 'http://example.com/hook' },
    });
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ type: 'invalid_request_error', details: [{ path: 'url' }] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await request(app().url, 'POST', '/v1/webhooks', {
        token: account.token,
        body: { url: `https://127.0.0.1:9/h${i}`, event_types: ['release.approved'] },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.endpoint.id);
    }
    const sixth = await request(app().url, 'POST', '/v1/webhooks', {
      token: account.token,
      body: { url: 'https://127.0.0.1:9/h6' },
    });
    expect(sixth.status).toBe(409);
    expect(sixth.body.type).toBe('conflict_error');

    const stranger = await accountWithToken(app().em());
    for (const [method, body] of [
      ['PATCH', { active: false }],
      ['DELETE', undefined],
    ] as const) {
      const r = await request(app().url, method, `/v1/webhooks/${ids[0]}`, { token: stranger.token, body });
      expect(r.status, method).toBe(404);
      expect(r.body.type).toBe('not_found_error');
    }
    await app()
      .em()
      .nativeUpdate(
        WebhookEndpoint,
        { id: ids[0] },
        { active: false, failureCount: 20, disabledAt: new Date() },
      );
    const enabled = await request(app().url, 'PATCH', `/v1/webhooks/${ids[0]}`, {
      token: account.token,
      body: { active: true, event_types: ['release.status_changed'] },
    });
    expect(enabled.body).toMatchObject({
      active: true,
      failure_count: 0,
      disabled_at: null,
      event_types: ['release.status_changed'],
    });
    const deleted = await request(app().url, 'DELETE', `/v1/webhooks/${ids[1]}`, { token: account.token });
    expect(deleted.body).toEqual({ id: ids[1], deleted: true });
    const log = await request(app().url, 'GET', `/v1/webhooks/${ids[0]}/deliveries`, {
      token: account.token,
    });
    expect(log.body.deliveries).toEqual([]);
  });
});

describe('webhook endpoints with the SSRF guard on (default)', () => {
  const app = useTestApp();

  it('refuses loopback, private and metadata addresses at creation', async () => {
    const account = await accountWithToken(app().em());
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/hook',
      'https://localhost/hook',
    ]) {
      const r = await request(app().url, 'POST', '/v1/webhooks', { token: account.token, body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe('url_not_allowed');
    }
  });
});
