import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, updateEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import { pingEndpoint } from '../../src/domains/webhooks/ping.ts';
import { WebhookEndpoint } from '../../src/domains/webhooks/webhook-endpoint.entity.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { LOOPBACK_OK, outboundFor, type Receiver, startReceiver, tableResolver } from './harness.ts';
import { legacyVerifies, standardVerifies } from './receivers.ts';

/** Webhook tools on every surface: REST, GraphQL and the agent interface, against a real https receiver. */
describe('webhook ping and secret rotation through the API', () => {
  let receiver: Receiver;
  let app: TestApp;
  // The grace window is judged on the app's clock; the signatures' timestamps stay on the wall clock.
  const clock = new ManualClock(new Date());
  let pathCounter = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startTestApp(
      { OUTBOUND_ALLOW_PRIVATE: 'true' },
      { services: { clock, webhookOutbound: outboundFor(receiver) } },
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  /** An account with an endpoint at a fresh receiver path (created in the domain: hooks.test resolves there). */
  async function setup() {
    const account = await accountWithToken(app.em());
    const path = `/tools/${++pathCounter}`;
    const { endpoint, secret } = await createEndpoint(
      app.em(),
      account.accountId,
      { url: receiver.url(path) },
      {
        policy: LOOPBACK_OK,
        resolver: tableResolver({ 'hooks.test': '127.0.0.1' }),
        secretKey: app.services.webhookSecretKey,
      },
    );
    return { account, id: endpoint.id, secret, path };
  }

  const post = (account: AccountFixture, path: string, body?: unknown) =>
    request(app.url, 'POST', `/v1/webhooks${path}`, { token: account.token, body });

  async function tool(account: AccountFixture, name: string, args: Record<string, unknown>) {
    const response = await request(app.url, 'POST', '/api/mcp', {
      token: account.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    const { result, error } = response.body;
    return { result: result ? JSON.parse(result.content[0].text) : undefined, error };
  }

  const inSeconds = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000).toISOString();

  it('REST: old- and new-secret receivers both verify pings during the grace window, only the new after it', async () => {
    const { account, id, secret: oldSecret, path } = await setup();
    const rotated = await post(account, `/${id}/rotate-secret`, { grace_seconds: 3600 });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.signing_secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.endpoint).toMatchObject({
      id,
      secret_prefix: newSecret.slice(0, 10),
      previous_secret_expires_at: inSeconds(3600),
    });

    const ping = await post(account, `/${id}/ping`);
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({
      endpoint_id: id,
      event_type: 'ping',
      release_id: null,
      status: 'succeeded',
      attempts: 1,
      response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(Number(ping.body.event_id)).toBeLessThan(0);
    const [hit] = receiver.at(path);
    expect(hit!.headers['x-svc-event']).toBe('ping');
    expect(hit!.headers['webhook-id']).toBe(ping.body.id);
    expect(JSON.parse(hit!.body)).toMatchObject({ event: 'ping', endpointId: id });
    expect(standardVerifies(oldSecret, hit!)).toBe(true);
    expect(standardVerifies(newSecret, hit!)).toBe(true);
    expect(await legacyVerifies(oldSecret, hit!)).toBe(true);

    // The ping is in the delivery log like any delivery.
    const log = await request(app.url, 'GET', `/v1/webhooks/${id}/deliveries`, { token: account.token });
    expect(log.body.deliveries).toEqual([ping.body]);

    clock.advance(3600);
    const list = await request(app.url, 'GET', '/v1/webhooks', { token: account.token });
    expect(list.body.webhooks[0].previous_secret_expires_at).toBeNull();
    expect((await post(account, `/${id}/ping`)).body.status).toBe('succeeded');
    const after = receiver.at(path)[1]!;
    expect(standardVerifies(newSecret, after)).toBe(true);
    expect(standardVerifies(oldSecret, after)).toBe(false);
    expect(await legacyVerifies(newSecret, after)).toBe(true);
    expect(await legacyVerifies(oldSecret, after)).toBe(false);
  });

  it('REST rotate-secret: grace_seconds defaults to one day, 0 keeps no old secret, bounds are 0..7 days', async () => {
    const { account, id } = await setup();
    const byDefault = await post(account, `/${id}/rotate-secret`);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.endpoint.previous_secret_expires_at).toBe(inSeconds(86_400));
    const none = await post(account, `/${id}/rotate-secret`, { grace_seconds: 0 });
    expect(none.body.endpoint.previous_secret_expires_at).toBeNull();
    const longest = await post(account, `/${id}/rotate-secret`, { grace_seconds: 7 * 86_400 });
    expect(longest.body.endpoint.previous_secret_expires_at).toBe(inSeconds(7 * 86_400));
    for (const [grace, code] of [
      [-1, 'invalid_argument'],
      [7 * 86_400 + 1, 'invalid_argument'],
      [1.5, 'invalid_field'],
      ['soon', 'invalid_field'],
    ]) {
      const refused = await post(account, `/${id}/rotate-secret`, { grace_seconds: grace });
      expect(refused.status, String(grace)).toBe(400);
      expect(refused.body).toMatchObject({ type: 'invalid_request_error', code });
      expect(refused.body.details?.[0]?.path, String(grace)).toBe('grace_seconds');
    }
    // Refusals changed nothing: the secret is still the last one handed out.
    const stored = await app.em().findOneOrFail(WebhookEndpoint, id);
    expect(stored.secretPrefix).toBe(longest.body.signing_secret.slice(0, 10));
  });

  it("another account's endpoint is not found, for ping and rotation alike; nothing is sent", async () => {
    const { id, path } = await setup();
    const stranger = await accountWithToken(app.em());
    for (const route of ['ping', 'rotate-secret']) {
      const foreign = await post(stranger, `/${id}/${route}`);
      expect(foreign.status, route).toBe(404);
      expect(foreign.body.code).toBe('webhook_not_found');
      const unknown = await post(stranger, `/3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f/${route}`);
      expect(unknown.status, route).toBe(404);
    }
    expect(receiver.at(path)).toEqual([]);
  });

  it('a ping reaches a disabled endpoint; it is one attempt and leaves the failure count and state alone', async () => {
    const { account, id, path } = await setup();
    await updateEndpoint(app.em(), account.accountId, id, { active: false });
    await app.em().nativeUpdate(WebhookEndpoint, { id }, { failureCount: 7 });
    receiver.respond(path, [500]);
    const failed = await post(account, `/${id}/ping`);
    expect(failed.body).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_status: 500,
      last_error: 'HTTP 500',
      next_attempt_at: null,
      delivered_at: null,
    });
    receiver.respond(path, [204]);
    const succeeded = await post(account, `/${id}/ping`);
    expect(succeeded.body).toMatchObject({ status: 'succeeded', response_status: 204 });
    expect(receiver.at(path)).toHaveLength(2);
    const stored = await app.em().findOneOrFail(WebhookEndpoint, id);
    expect(stored).toMatchObject({ active: false, failureCount: 7 });
  });

  it('a ping goes through the SSRF guard: an address the policy refuses is a failed delivery, not a request', async () => {
    const { account, id, path } = await setup();
    const strict = outboundFor(receiver, { policy: { allowPrivate: false } });
    try {
      const delivery = await pingEndpoint(app.em(), account.accountId, id, {
        outbound: strict,
        secretKey: app.services.webhookSecretKey,
        timeoutSeconds: 5,
      });
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null });
      expect(delivery.lastError).toMatch(/^url_not_allowed: /);
    } finally {
      await strict.close();
    }
    expect(receiver.at(path)).toEqual([]);
  });

  it('GraphQL: rotateWebhookSecret and pingWebhookEndpoint (event type PING)', async () => {
    const { account, id, secret: oldSecret, path } = await setup();
    const rotated = await graphql(
      app.url,
      `mutation($id: ID!) { rotateWebhookSecret(id: $id, graceSeconds: 120) {
        signingSecret endpoint { id previousSecretExpiresAt } } }`,
      { id },
      account.token,
    );
    expect(rotated.body.errors).toBeUndefined();
    const { signingSecret, endpoint } = rotated.body.data.rotateWebhookSecret;
    expect(endpoint.previousSecretExpiresAt).toBe(inSeconds(120));
    const pinged = await graphql(
      app.url,
      'mutation($id: ID!) { pingWebhookEndpoint(id: $id) { eventType status responseStatus } }',
      { id },
      account.token,
    );
    expect(pinged.body.data.pingWebhookEndpoint).toEqual({
      eventType: 'PING',
      status: 'SUCCEEDED',
      responseStatus: 200,
    });
    const [hit] = receiver.at(path);
    expect(standardVerifies(signingSecret, hit!)).toBe(true);
    expect(standardVerifies(oldSecret, hit!)).toBe(true);
    const outOfRange = await graphql(
      app.url,
      'mutation($id: ID!) { rotateWebhookSecret(id: $id, graceSeconds: -5) { signingSecret } }',
      { id },
      account.token,
    );
    expect(outOfRange.body.errors?.[0]?.extensions.type).toBe('invalid_request_error');
  });

  it('agent tools: rotate_webhook_secret and ping_webhook', async () => {
    const { account, id, secret: oldSecret, path } = await setup();
    const rotated = await tool(account, 'rotate_webhook_secret', { endpointId: id, graceSeconds: 60 });
    expect(rotated.error).toBeUndefined();
    expect(rotated.result.endpoint).toMatchObject({ id, previous_secret_expires_at: inSeconds(60) });
    const newSecret: string = rotated.result.signing_secret;
    const pinged = await tool(account, 'ping_webhook', { endpointId: id });
    expect(pinged.result).toMatchObject({ event_type: 'ping', status: 'succeeded', response_status: 200 });
    const [hit] = receiver.at(path);
    expect(standardVerifies(newSecret, hit!)).toBe(true);
    expect(standardVerifies(oldSecret, hit!)).toBe(true);
    const refused = await tool(account, 'rotate_webhook_secret', {
      endpointId: id,
      graceSeconds: 7 * 86_400 + 1,
    });
    expect(refused.error?.code).toBe(-32602);
    const stranger = await accountWithToken(app.em());
    const foreign = await tool(stranger, 'ping_webhook', { endpointId: id });
    expect(foreign.error?.code).toBe(404);
  });
});
