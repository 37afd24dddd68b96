import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_WINDOW_SECONDS,
  dispatchEvent,
  dispatchEvents,
} from '../../src/domains/webhooks/dispatch.ts';
import { createEndpoint, listEndpoints, updateEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import { RETRY_BACKOFF_SECONDS, sendDueWebhooks } from '../../src/domains/webhooks/send-due.ts';
import { startWebhookSender } from '../../src/domains/webhooks/sender.ts';
import { signTimestamped } from '../../src/domains/webhooks/signature.ts';
import { webhookDeliveryView } from '../../src/domains/webhooks/views.ts';
import { listWebhookDeliveries, redeliverWebhook } from '../../src/domains/webhooks/webhook-deliveries.ts';
import { WebhookDelivery } from '../../src/domains/webhooks/webhook-delivery.entity.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { AppError } from '../../src/platform/errors.ts';
import type { OutboundClient } from '../../src/platform/http/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { accountWithToken } from '../support/factories.ts';
import {
  LOOPBACK_OK,
  outboundFor,
  publishedEvent,
  tableResolver,
  testSecretKey,
  useReceiver,
  useWebhookOrm,
} from './harness.ts';

const orm = useWebhookOrm();
const secretKey = testSecretKey();
const clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
const hooks = useReceiver();
let pathCounter = 0;

const deps = () => ({ outbound: hooks.outbound, secretKey, now: clock.now(), timeoutSeconds: 5 });

/** Sends everything due now, until nothing is left due. */
async function drain(client = hooks.outbound): Promise<void> {
  for (;;) {
    const result = await sendDueWebhooks(orm().em.fork(), { ...deps(), outbound: client }, 50);
    if (result.claimed === 0) return;
  }
}

/** An account with one endpoint at a fresh receiver path. */
async function setup(input: { eventTypes?: string[]; statuses?: number[] } = {}) {
  const { accountId } = await accountWithToken(orm().em.fork());
  const path = `/hook/${++pathCounter}`;
  if (input.statuses) hooks.receiver.respond(path, input.statuses);
  const { endpoint, secret } = await createEndpoint(
    orm().em.fork(),
    accountId,
    { url: hooks.receiver.url(path), eventTypes: input.eventTypes },
    { policy: LOOPBACK_OK, resolver: tableResolver({ 'hooks.test': '127.0.0.1' }), secretKey },
  );
  return { accountId, endpointId: endpoint.id, secret, path };
}

async function deliveriesOf(endpointId: string) {
  return orm()
    .em.fork()
    .find(WebhookDelivery, { endpoint: endpointId }, { orderBy: { eventCursor: 'asc' } });
}

async function endpointOf(accountId: string) {
  const [endpoint] = await listEndpoints(orm().em.fork(), accountId);
  return endpoint!;
}

describe('webhook delivery', () => {
  it('POSTs the raw JSON body, signed, with event, delivery id and timestamp headers', async () => {
    const { accountId, endpointId, secret, path } = await setup();
    const event = publishedEvent(accountId);
    expect(await dispatchEvent(orm().em.fork(), event, clock.now())).toEqual({ queued: 1, suppressed: 0 });
    await drain();
    const [request] = hooks.receiver.at(path);
    expect(request).toBeDefined();
    const { headers, body } = request!;
    expect(request!.method).toBe('POST');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Tributary-Webhooks/1');
    expect(headers['x-svc-event']).toBe('release.status_changed');
    expect(JSON.parse(body)).toEqual(event.payload);
    expect(headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(secret, body, String(headers['x-svc-signature']))).toBe(true);
    expect(await verify('whsec_wrong', body, String(headers['x-svc-signature']))).toBe(false);
    const [delivery] = await deliveriesOf(endpointId);
    expect(headers['x-svc-delivery']).toBe(delivery!.id);
    const timestamp = Number(headers['x-svc-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['x-svc-signature-timestamped']).toBe(
      signTimestamped(secret, timestamp, delivery!.id, body),
    );
    expect(headers['x-svc-attempt']).toBe('1');
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      lastError: null,
    });
    // Measured on the wall clock around the POST to a loopback receiver (not the test's manual clock).
    expect(delivery!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(delivery!.latencyMs).toBeLessThan(5_000);
    expect(delivery!.deliveredAt).toEqual(clock.now());
  });

  it('sends only subscribed event types, only to the owner, only when active', async () => {
    const first = await setup({ eventTypes: ['release.approved'] });
    const second = await setup();
    await dispatchEvent(orm().em.fork(), publishedEvent(first.accountId), clock.now());
    await dispatchEvent(
      orm().em.fork(),
      publishedEvent(first.accountId, { type: 'release.approved' }),
      clock.now(),
    );
    await updateEndpoint(orm().em.fork(), second.accountId, second.endpointId, { active: false });
    expect(await dispatchEvent(orm().em.fork(), publishedEvent(second.accountId), clock.now())).toEqual({
      queued: 0,
      suppressed: 0,
    });
    await drain();
    expect(hooks.receiver.at(first.path).map((r) => r.headers['x-svc-event'])).toEqual(['release.approved']);
    expect(hooks.receiver.at(second.path)).toHaveLength(0);
  });

  it('retries twice with backoff: fails twice, then delivered on the 3rd attempt', async () => {
    const { accountId, endpointId, secret, path } = await setup({ statuses: [500, 503, 204] });
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    await drain();
    let [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    expect(delivery!.nextAttemptAt).toEqual(
      new Date(clock.now().getTime() + RETRY_BACKOFF_SECONDS[0] * 1000),
    );
    clock.advance(RETRY_BACKOFF_SECONDS[0] - 1);
    await drain();
    expect(hooks.receiver.at(path)).toHaveLength(1);
    clock.advance(1);
    await drain();
    [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, responseStatus: 503 });
    clock.advance(RETRY_BACKOFF_SECONDS[1]);
    await drain();
    [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      responseStatus: 204,
      lastError: null,
    });
    const requests = hooks.receiver.at(path);
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.headers['x-svc-delivery']))).toEqual(new Set([delivery!.id]));
    for (const r of requests)
      expect(await verify(secret, r.body, String(r.headers['x-svc-signature']))).toBe(true);
    expect((await endpointOf(accountId)).failureCount).toBe(0);
  });

  it('fails after 3 failed attempts (also on a refused connection) and counts a failure', async () => {
    const { accountId, endpointId, path } = await setup({ statuses: [500] });
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 3,
      nextAttemptAt: null,
      responseStatus: 500,
    });
    expect(hooks.receiver.at(path)).toHaveLength(3);
    expect((await endpointOf(accountId)).failureCount).toBe(1);

    // Nothing listens on port 1: connection refused is a failure like any other.
    const closed = await setup();
    await orm()
      .em.fork()
      .execute('update webhook_endpoints set url = ? where id = ?', [
        'https://hooks.test:1/x',
        closed.endpointId,
      ]);
    await dispatchEvent(orm().em.fork(), publishedEvent(closed.accountId), clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    const [refused] = await deliveriesOf(closed.endpointId);
    expect(refused).toMatchObject({ status: 'failed', attempts: 3, responseStatus: null });
    expect(refused!.lastError).toContain('upstream_unreachable');
  });

  it('disables after 20 consecutive failed deliveries; PATCH active true resets the count', async () => {
    const { accountId, endpointId, path } = await setup({ statuses: [500] });
    // A success in between resets the count: 5 failures, a success, then 20 failures.
    const events = Array.from({ length: 20 }, () => publishedEvent(accountId));
    for (const event of events.slice(0, 5)) await dispatchEvent(orm().em.fork(), event, clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    expect((await endpointOf(accountId)).failureCount).toBe(5);
    hooks.receiver.respond(path, [200]);
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    await drain();
    expect((await endpointOf(accountId)).failureCount).toBe(0);
    hooks.receiver.respond(path, [500]);
    for (const event of events) await dispatchEvent(orm().em.fork(), event, clock.now());
    // Events 1-5 were already dispatched to this endpoint: the fan-out is idempotent per event.
    const fresh = Array.from({ length: 5 }, () => publishedEvent(accountId));
    for (const event of fresh) await dispatchEvent(orm().em.fork(), event, clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    let endpoint = await endpointOf(accountId);
    expect(endpoint.failureCount).toBe(20);
    expect(endpoint.active).toBe(false);
    expect(endpoint.disabledAt).toEqual(clock.now());
    const before = hooks.receiver.at(path).length;
    expect(before).toBe(5 * 3 + 1 + 20 * 3);

    expect(await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now())).toEqual({
      queued: 0,
      suppressed: 0,
    });
    clock.advance(3600);
    await drain();
    expect(hooks.receiver.at(path)).toHaveLength(before);

    endpoint = await updateEndpoint(orm().em.fork(), accountId, endpointId, { active: true });
    expect(endpoint).toMatchObject({ active: true, failureCount: 0, disabledAt: null });
    hooks.receiver.respond(path, [200]);
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    await drain();
    expect(hooks.receiver.at(path)).toHaveLength(before + 1);
  });

  it('closes due retries of a disabled endpoint without sending them', async () => {
    const { accountId, endpointId, path } = await setup({ statuses: [500] });
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    await drain();
    await updateEndpoint(orm().em.fork(), accountId, endpointId, { active: false });
    clock.advance(RETRY_BACKOFF_SECONDS[0]);
    await drain();
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(delivery!.lastError).toContain('disabled');
    expect(hooks.receiver.at(path)).toHaveLength(1);
    expect((await endpointOf(accountId)).failureCount).toBe(0);
  });

  it('suppresses an identical event for the same release within 6 hours', async () => {
    const { accountId, endpointId, path } = await setup();
    const releaseId = crypto.randomUUID();
    const first = publishedEvent(accountId, { releaseId, occurredAt: clock.now() });
    await dispatchEvent(orm().em.fork(), first, clock.now());
    await drain();
    clock.advance(3600);
    const again = publishedEvent(accountId, { releaseId, occurredAt: clock.now() });
    expect(again.payload.occurredAt).not.toBe(first.payload.occurredAt);
    expect(await dispatchEvent(orm().em.fork(), again, clock.now())).toEqual({ queued: 0, suppressed: 1 });
    // Different content, or another release: sent.
    const moved = publishedEvent(accountId, { releaseId, payload: { status: 'distributed' } });
    const other = publishedEvent(accountId);
    expect(await dispatchEvent(orm().em.fork(), moved, clock.now())).toEqual({ queued: 1, suppressed: 0 });
    expect(await dispatchEvent(orm().em.fork(), other, clock.now())).toEqual({ queued: 1, suppressed: 0 });
    await drain();
    expect(hooks.receiver.at(path)).toHaveLength(3);
    // 6 hours after the first was received, the identical event goes out again.
    clock.advance(DUPLICATE_WINDOW_SECONDS - 3600 + 1);
    const later = publishedEvent(accountId, { releaseId, occurredAt: clock.now() });
    expect(await dispatchEvent(orm().em.fork(), later, clock.now())).toEqual({ queued: 1, suppressed: 0 });
    await drain();
    expect(hooks.receiver.at(path)).toHaveLength(4);
    const statuses = (await deliveriesOf(endpointId)).map((d) => d.status);
    expect(statuses).toEqual(['succeeded', 'suppressed', 'succeeded', 'succeeded', 'succeeded']);
  });

  it('does not suppress when the earlier identical event failed', async () => {
    const { accountId, path } = await setup({ statuses: [500] });
    const releaseId = crypto.randomUUID();
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId, { releaseId }), clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    hooks.receiver.respond(path, [200]);
    const again = publishedEvent(accountId, { releaseId });
    expect(await dispatchEvent(orm().em.fork(), again, clock.now())).toEqual({ queued: 1, suppressed: 0 });
  });

  it('logs deliveries (status, attempts, response code, latency) and redelivers one', async () => {
    const { accountId, endpointId, secret, path } = await setup({ statuses: [500] });
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    for (const step of [0, ...RETRY_BACKOFF_SECONDS]) {
      clock.advance(step);
      await drain();
    }
    const [logged] = await listWebhookDeliveries(orm().em.fork(), accountId, endpointId, 10);
    expect(webhookDeliveryView(logged!)).toMatchObject({
      endpointId,
      eventType: 'release.status_changed',
      status: 'failed',
      attempts: 3,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    expect(logged!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(logged!.latencyMs).toBeLessThan(5_000);

    const intruder = await setup();
    const error = await redeliverWebhook(
      orm().em.fork(),
      intruder.accountId,
      endpointId,
      logged!.id,
      clock.now(),
    ).catch((e: unknown) => e);
    expect((error as AppError).type).toBe('not_found_error');
    const wrongEndpoint = await redeliverWebhook(
      orm().em.fork(),
      intruder.accountId,
      intruder.endpointId,
      logged!.id,
      clock.now(),
    ).catch((e: unknown) => e);
    expect((wrongEndpoint as AppError).code).toBe('webhook_delivery_not_found');

    hooks.receiver.respond(path, [200]);
    const reset = await redeliverWebhook(orm().em.fork(), accountId, endpointId, logged!.id, clock.now());
    expect(reset).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    await drain();
    const [after] = await listWebhookDeliveries(orm().em.fork(), accountId, endpointId);
    expect(after).toMatchObject({ id: logged!.id, status: 'succeeded', attempts: 1, responseStatus: 200 });
    const requests = hooks.receiver.at(path);
    expect(requests).toHaveLength(4);
    expect(requests[3]!.headers['x-svc-delivery']).toBe(logged!.id);
    expect(await verify(secret, requests[3]!.body, String(requests[3]!.headers['x-svc-signature']))).toBe(
      true,
    );
  });

  it('refuses to deliver when the host now resolves to a private address', async () => {
    const { accountId } = await accountWithToken(orm().em.fork());
    // evil.test first resolves to an address the policy treats as public (the test seam), then to 10.x.
    const table: Record<string, string> = { 'evil.test': '127.0.0.1' };
    const strict = { allowPrivate: false, allowAddresses: ['127.0.0.1'] };
    const url = `https://evil.test:${hooks.receiver.port}/evil`;
    const { endpoint } = await createEndpoint(
      orm().em.fork(),
      accountId,
      { url },
      { policy: strict, resolver: tableResolver(table), secretKey },
    );
    table['evil.test'] = '10.0.0.7';
    const client = outboundFor(hooks.receiver, { policy: strict, resolver: tableResolver(table) });
    try {
      await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
      await drain(client);
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
      expect(delivery!.lastError).toContain('url_not_allowed');
      expect(delivery!.lastError).toContain('10.0.0.7');
      expect(hooks.receiver.at('/evil')).toHaveLength(0);
    } finally {
      await client.close();
    }
  });
});

describe('webhook sender (pipeline)', () => {
  /** Runs a worker with `concurrency` in flight until `done` holds. */
  async function runWorker(concurrency: number, done: () => Promise<boolean>, client = hooks.outbound) {
    const logger = createLogger('silent');
    const stop = startWebhookSender({
      orm: orm(),
      outbound: client,
      secretKey,
      logger,
      clock,
      timeoutSeconds: 5,
      concurrency,
    });
    try {
      await expect.poll(done, { timeout: 20_000, interval: 50 }).toBe(true);
    } finally {
      await stop();
    }
  }

  it('drains a burst with a bounded number in flight over kept-alive connections, each sent and recorded once', async () => {
    const { accountId, endpointId, secret, path } = await setup();
    const events = Array.from({ length: 300 }, () => publishedEvent(accountId));
    expect(await dispatchEvents(orm().em.fork(), events, clock.now())).toEqual({
      queued: 300,
      suppressed: 0,
    });
    const connectionsBefore = hooks.receiver.connections();
    // As the server composes it: at most WEBHOOK_CONCURRENCY connections to one receiver.
    const bounded = outboundFor(hooks.receiver, { connectionsPerOrigin: 8 });
    await runWorker(
      8,
      async () => (await deliveriesOf(endpointId)).every((d) => d.status === 'succeeded'),
      bounded,
    );
    await bounded.close();
    const hits = hooks.receiver.at(path);
    expect(new Set(hits.map((hit) => String(hit.headers['x-svc-delivery']))).size).toBe(300);
    expect(hits).toHaveLength(300);
    // Connections are kept alive and reused: at most one per slot, not one per delivery.
    expect(hooks.receiver.connections() - connectionsBefore).toBeLessThanOrEqual(8);
    for (const hit of hits.slice(0, 20)) {
      expect(await verify(secret, hit.body, String(hit.headers['x-svc-signature']))).toBe(true);
    }
    const rows = await deliveriesOf(endpointId);
    expect(
      rows.every((row) => row.attempts === 1 && row.responseStatus === 200 && row.nextAttemptAt === null),
    ).toBe(true);
  });

  it('records failures beside successes: a 500 is scheduled for a retry in 30 s, the successes are final', async () => {
    const ok = await setup();
    const failing = await setup({ statuses: [500] });
    const events = [publishedEvent(ok.accountId), publishedEvent(failing.accountId)];
    await dispatchEvents(orm().em.fork(), events, clock.now());
    await runWorker(4, async () => (await deliveriesOf(failing.endpointId))[0]?.attempts === 1);
    const [failed] = await deliveriesOf(failing.endpointId);
    expect(failed).toMatchObject({ status: 'pending', responseStatus: 500, lastError: 'HTTP 500' });
    expect(failed!.nextAttemptAt).toEqual(new Date(clock.now().getTime() + RETRY_BACKOFF_SECONDS[0] * 1000));
    const [succeeded] = await deliveriesOf(ok.endpointId);
    expect(succeeded).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200 });
  });

  it('claims ahead of its free slots, and a stopped worker makes the rows it claimed but did not send due again', async () => {
    const { accountId, endpointId, path } = await setup();
    await dispatchEvents(
      orm().em.fork(),
      Array.from({ length: 5 }, () => publishedEvent(accountId)),
      clock.now(),
    );
    // The first POST waits until the worker has been told to stop.
    let sending = 0;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated: OutboundClient = {
      request: async (url, options) => {
        sending++;
        await gate;
        return hooks.outbound.request(url, options);
      },
      close: async () => {},
    };
    const stop = startWebhookSender({
      orm: orm(),
      outbound: gated,
      secretKey,
      logger: createLogger('silent'),
      clock,
      timeoutSeconds: 5,
      concurrency: 1,
    });
    await expect.poll(() => sending, { timeout: 10_000 }).toBe(1);
    const leased = (await deliveriesOf(endpointId)).filter(
      (d) => d.nextAttemptAt!.getTime() > clock.now().getTime(),
    );
    // One in flight and two queued behind it (three times the concurrency), each leased.
    expect(leased).toHaveLength(3);
    const stopped = stop();
    open();
    await stopped;
    expect(hooks.receiver.at(path)).toHaveLength(1);
    const rows = await deliveriesOf(endpointId);
    expect(rows.filter((d) => d.status === 'succeeded')).toHaveLength(1);
    const pending = rows.filter((d) => d.status === 'pending');
    expect(pending).toHaveLength(4);
    // The two queued rows are due again now, not when their lease would have ended.
    expect(
      pending.every((d) => d.attempts === 0 && d.nextAttemptAt!.getTime() <= clock.now().getTime()),
    ).toBe(true);
  });
});
