import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker } from '../../src/domains/webhooks/delivery-worker.ts';
import { dispatchEvents } from '../../src/domains/webhooks/dispatch.ts';
import { createEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import { WebhookDelivery } from '../../src/domains/webhooks/webhook-delivery.entity.ts';
import type { OutboundClient } from '../../src/platform/http/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { accountWithToken } from '../support/factories.ts';
import {
  LOOPBACK_OK,
  outboundFor,
  publishedEvent,
  type Receiver,
  startReceiver,
  tableResolver,
  testSecretKey,
  useWebhookOrm,
} from './harness.ts';

const orm = useWebhookOrm();
const secretKey = testSecretKey();
const logger = createLogger('silent');
let receiver: Receiver;
let outbound: OutboundClient;

beforeAll(async () => {
  receiver = await startReceiver();
  outbound = outboundFor(receiver);
});
afterAll(async () => {
  await outbound?.close();
  await receiver?.close();
});

async function endpointAt(path: string, statuses?: number[]) {
  const { accountId } = await accountWithToken(orm().em.fork());
  if (statuses) receiver.respond(path, statuses);
  const { endpoint, secret } = await createEndpoint(
    orm().em.fork(),
    accountId,
    { url: receiver.url(path) },
    { policy: LOOPBACK_OK, resolver: tableResolver({ 'hooks.test': '127.0.0.1' }), secretKey },
  );
  return { accountId, endpointId: endpoint.id, secret };
}

describe('webhook delivery worker (pipeline)', () => {
  it('drains a burst with a bounded number in flight over kept-alive connections, each sent and recorded once', async () => {
    const { accountId, endpointId, secret } = await endpointAt('/pipeline/ok');
    const events = Array.from({ length: 300 }, () => publishedEvent(accountId));
    expect(await dispatchEvents(orm().em.fork(), events, new Date())).toEqual({ queued: 300, suppressed: 0 });
    const connectionsBefore = receiver.connections();
    const stop = startDeliveryWorker({
      orm: orm(),
      outbound,
      secretKey,
      logger,
      timeoutSeconds: 5,
      concurrency: 8,
    });
    try {
      await expect
        .poll(
          async () => orm().em.fork().count(WebhookDelivery, { endpoint: endpointId, status: 'succeeded' }),
          { timeout: 20_000, interval: 50 },
        )
        .toBe(300);
    } finally {
      await stop();
    }
    const hits = receiver.at('/pipeline/ok');
    const ids = hits.map((hit) => String(hit.headers['x-svc-delivery']));
    expect(new Set(ids).size).toBe(300);
    expect(hits).toHaveLength(300);
    // Connections are kept alive and reused: at most one per slot, not one per delivery.
    expect(receiver.connections() - connectionsBefore).toBeLessThanOrEqual(8);
    for (const hit of hits.slice(0, 20)) {
      expect(await verify(secret, hit.body, String(hit.headers['x-svc-signature']))).toBe(true);
    }
    const rows = await orm().em.fork().find(WebhookDelivery, { endpoint: endpointId });
    expect(
      rows.every((row) => row.attempts === 1 && row.responseStatus === 200 && row.nextAttemptAt === null),
    ).toBe(true);
  });

  it('records failures beside successes: a 500 is scheduled for a retry in 30 s, the successes are final', async () => {
    const ok = await endpointAt('/pipeline/mixed-ok');
    const failing = await endpointAt('/pipeline/mixed-500', [500]);
    const now = new Date();
    await dispatchEvents(
      orm().em.fork(),
      [publishedEvent(ok.accountId), publishedEvent(failing.accountId)],
      now,
    );
    const stop = startDeliveryWorker({
      orm: orm(),
      outbound,
      secretKey,
      logger,
      timeoutSeconds: 5,
      concurrency: 4,
    });
    try {
      await expect
        .poll(
          async () =>
            (await orm().em.fork().find(WebhookDelivery, { endpoint: failing.endpointId }))[0]?.attempts ?? 0,
          { timeout: 10_000, interval: 50 },
        )
        .toBe(1);
    } finally {
      await stop();
    }
    const [failed] = await orm().em.fork().find(WebhookDelivery, { endpoint: failing.endpointId });
    expect(failed).toMatchObject({ status: 'pending', responseStatus: 500, lastError: 'HTTP 500' });
    expect(failed!.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(20_000);
    const [succeeded] = await orm().em.fork().find(WebhookDelivery, { endpoint: ok.endpointId });
    expect(succeeded).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200 });
  });
});
