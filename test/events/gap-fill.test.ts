import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { withGapFill } from '../../src/platform/events/gap-fill.ts';
import { createLocalPubSub, type PublishedEvent } from '../../src/platform/events/pubsub.ts';
import { OutboxRelay } from '../../src/platform/events/relay.ts';
import { lastPublishedCursor, publishedBetween } from '../../src/platform/events/replay.ts';
import { streamEvents } from '../../src/platform/events/subscribe.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { useTestOrm } from '../support/orm.ts';

const orm = useTestOrm('gap_fill');
const logger = createLogger('silent');
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const emit = (accountId: string, n: number) =>
  orm()
    .em.fork()
    .transactional((em) => appendEvent(em, { accountId, type: 'release.status_changed', payload: { n } }));

describe('events from other processes, with holes filled from the outbox', () => {
  it('a relay killed between its commit and its publish: the next event brings the missed ones first, in order', async () => {
    const accountId = randomUUID();
    // This process's view of the shared pub/sub (Redis in production: any transport does).
    const transport = createLocalPubSub();
    const events = withGapFill(transport, {
      lastCursor: () => lastPublishedCursor(orm().em.fork()),
      between: (after, before) => publishedBetween(orm().em.fork(), after, before),
    });
    stops.push(() => events.close());
    const received: PublishedEvent[] = [];
    const controller = new AbortController();
    stops.push(async () => controller.abort());
    void (async () => {
      for await (const event of streamEvents(orm().em, events, { accountId }, null, controller.signal))
        received.push(event);
    })();
    await new Promise((resolve) => setTimeout(resolve, 300)); // listening, and the last cursor read

    // Another process's relay assigns cursors to two events and dies before publishing them.
    await emit(accountId, 1);
    await emit(accountId, 2);
    const killed = new OutboxRelay(orm(), { ...createLocalPubSub(), publish: async () => {} }, logger);
    await killed.start();
    await killed.kick();
    await killed.stop();
    // The surviving process's relay publishes the next one.
    const relay = new OutboxRelay(orm(), transport, logger);
    await relay.start();
    stops.push(() => relay.stop());
    await emit(accountId, 3);

    await vi.waitFor(() => expect(received).toHaveLength(3));
    expect(received.map((e) => e.payload.n)).toEqual([1, 2, 3]);
    expect(received.map((e) => e.cursor)).toEqual([...received.map((e) => e.cursor)].sort((a, b) => a - b));
  });
});
