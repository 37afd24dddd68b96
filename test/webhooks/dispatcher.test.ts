import { randomUUID } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishedEventsAfter } from '../../src/domains/webhooks/dispatch.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/domains/webhooks/dispatcher.ts';
import { createEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import { startWebhookSender } from '../../src/domains/webhooks/sender.ts';
import { WebhookDelivery } from '../../src/domains/webhooks/webhook-delivery.entity.ts';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { createLocalPubSub, type PubSub } from '../../src/platform/events/pubsub.ts';
import { OutboxRelay } from '../../src/platform/events/relay.ts';
import type { OutboundClient } from '../../src/platform/http/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { accountWithToken } from '../support/factories.ts';
import {
  LOOPBACK_OK,
  outboundFor,
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
let pubsub: PubSub;
let relay: OutboxRelay;
let pathCounter = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  outbound = outboundFor(receiver);
  pubsub = createLocalPubSub();
  relay = new OutboxRelay(orm(), pubsub, logger);
  await relay.start();
});
afterAll(async () => {
  await relay?.stop();
  await pubsub?.close();
  await outbound?.close();
  await receiver?.close();
});

async function setup(endpoints = 1) {
  const { accountId } = await accountWithToken(orm().em.fork());
  const created: { endpointId: string; secret: string; path: string }[] = [];
  for (let i = 0; i < endpoints; i++) {
    const path = `/d/${++pathCounter}`;
    const { endpoint, secret } = await createEndpoint(
      orm().em.fork(),
      accountId,
      { url: receiver.url(path) },
      { policy: LOOPBACK_OK, resolver: tableResolver({ 'hooks.test': '127.0.0.1' }), secretKey },
    );
    created.push({ endpointId: endpoint.id, secret, path });
  }
  return { accountId, endpoints: created };
}

/** Writes an event the way domain code does (outbox, in a transaction); the relay publishes it. */
async function emit(accountId: string, status: string): Promise<number> {
  const releaseId = randomUUID();
  const row = await orm()
    .em.fork()
    .transactional((tem) =>
      appendEvent(tem, {
        accountId,
        releaseId,
        type: 'release.status_changed',
        payload: { event: 'release.status_changed', releaseId, status, occurredAt: new Date().toISOString() },
      }),
    );
  return row.id;
}

async function deliveryRows(endpointId: string) {
  return orm()
    .em.fork()
    .find(WebhookDelivery, { endpoint: endpointId }, { orderBy: { eventCursor: 'asc' } });
}

async function persistedCursor(): Promise<number> {
  const [row] = await orm()
    .em.fork()
    .execute<{ cursor: string }[]>(`select cursor from webhook_dispatch_cursor where id = 'dispatcher'`);
  return Number(row?.cursor ?? -1);
}

async function publishedCursorOf(eventId: number): Promise<number> {
  return vi.waitFor(async () => {
    const [row] = await orm()
      .em.fork()
      .execute<{ cursor: string | null }[]>('select cursor from outbox_events where id = ?', [eventId]);
    if (!row?.cursor) throw new Error('not published yet');
    return Number(row.cursor);
  });
}

describe('webhook dispatcher', () => {
  it('two dispatchers on the same events create one delivery per endpoint', async () => {
    const dispatchers: WebhookDispatcher[] = [
      await startWebhookDispatcher({ orm: orm(), pubsub, logger }),
      await startWebhookDispatcher({ orm: orm(), pubsub, logger }),
    ];
    try {
      const { accountId, endpoints } = await setup(2);
      const ids = [await emit(accountId, 'delivered'), await emit(accountId, 'distributed')];
      const last = await publishedCursorOf(ids[1]!);
      await vi.waitFor(() => {
        for (const d of dispatchers) expect(d.lastCursor()).toBeGreaterThanOrEqual(last);
      });
      for (const { endpointId } of endpoints) {
        const rows = await deliveryRows(endpointId);
        expect(rows.map((r) => r.eventId)).toEqual(ids);
      }
      expect(await persistedCursor()).toBeGreaterThanOrEqual(last);
    } finally {
      for (const d of dispatchers) await d.stop();
    }
  });

  it('resumes from its persisted cursor: events published while stopped go out after restart', async () => {
    const stopWorker = startWebhookSender({ orm: orm(), outbound, secretKey, logger, timeoutSeconds: 5 });
    const { accountId, endpoints } = await setup(1);
    const { endpointId, secret, path } = endpoints[0]!;
    try {
      let dispatcher = await startWebhookDispatcher({ orm: orm(), pubsub, logger });
      const first = await emit(accountId, 'delivered');
      await vi.waitFor(() => expect(receiver.at(path)).toHaveLength(1));
      await dispatcher.stop();
      const cursorWhenStopped = await persistedCursor();

      const missed = [await emit(accountId, 'distributed'), await emit(accountId, 'taken_down')];
      await publishedCursorOf(missed[1]!);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.at(path)).toHaveLength(1);
      expect(await persistedCursor()).toBe(cursorWhenStopped);

      dispatcher = await startWebhookDispatcher({ orm: orm(), pubsub, logger });
      try {
        await vi.waitFor(() => expect(receiver.at(path)).toHaveLength(3));
        const live = await emit(accountId, 'pending');
        await vi.waitFor(() => expect(receiver.at(path)).toHaveLength(4));
        const rows = await deliveryRows(endpointId);
        expect(rows.map((r) => r.eventId)).toEqual([first, ...missed, live]);
        await vi.waitFor(async () =>
          expect((await deliveryRows(endpointId)).every((r) => r.status === 'succeeded')).toBe(true),
        );
        const statuses = receiver.at(path).map((r) => (JSON.parse(r.body) as { status: string }).status);
        // Deliveries of one endpoint go out concurrently: no ordering promise between events.
        expect(statuses.sort()).toEqual(['delivered', 'distributed', 'pending', 'taken_down']);
        for (const r of receiver.at(path)) {
          expect(await verify(secret, r.body, String(r.headers['x-svc-signature']))).toBe(true);
        }
      } finally {
        await dispatcher.stop();
      }
    } finally {
      await stopWorker();
    }
  });

  it('does not send history from before its first start', async () => {
    await orm().em.fork().execute(`delete from webhook_dispatch_cursor`);
    const { accountId, endpoints } = await setup(1);
    const old = await emit(accountId, 'delivered');
    const oldCursor = await publishedCursorOf(old);
    const dispatcher = await startWebhookDispatcher({ orm: orm(), pubsub, logger });
    try {
      expect(await persistedCursor()).toBeGreaterThanOrEqual(oldCursor);
      const next = await emit(accountId, 'distributed');
      const nextCursor = await publishedCursorOf(next);
      await vi.waitFor(() => expect(dispatcher.lastCursor()).toBeGreaterThanOrEqual(nextCursor));
      expect((await deliveryRows(endpoints[0]!.endpointId)).map((r) => r.eventId)).toEqual([next]);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe('webhook dispatcher starting while events flow', () => {
  it('an event that arrives while it reads its cursor waits for the start (it used to crash the process)', async () => {
    const { accountId, endpoints } = await setup(1);
    const id = await emit(accountId, 'delivered');
    const cursor = await publishedCursorOf(id);
    const [event] = await publishedEventsAfter(orm().em.fork(), cursor - 1, 1);
    // Another process publishing while this one starts: the event reaches the listener at once.
    const busy: PubSub = {
      ...pubsub,
      subscribe: (listener) => {
        const unsubscribe = pubsub.subscribe(listener);
        listener(event!);
        return unsubscribe;
      },
    };
    const dispatcher = await startWebhookDispatcher({ orm: orm(), pubsub: busy, logger });
    try {
      await vi.waitFor(() => expect(dispatcher.lastCursor()).toBeGreaterThanOrEqual(cursor));
      expect((await deliveryRows(endpoints[0]!.endpointId)).map((r) => r.eventId)).toEqual([id]);
    } finally {
      await dispatcher.stop();
    }
  });
});
