import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { withGapFill } from '../../src/platform/events/gap-fill.ts';
import { createLocalPubSub, type PublishedEvent, type PubSub } from '../../src/platform/events/pubsub.ts';
import { OutboxRelay } from '../../src/platform/events/relay.ts';
import { lastPublishedCursor, publishedBetween } from '../../src/platform/events/replay.ts';
import { streamEvents } from '../../src/platform/events/subscribe.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { useTestOrm } from '../support/orm.ts';

const orm = useTestOrm('gap_fill');
const logger = createLogger('silent');
const stops: (() => Promise<void>)[] = [];
// Each test's relays and listeners stop with it: a relay left running would publish the next test's
// events to its own transport.
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const emit = (accountId: string, n: number) =>
  orm()
    .em.fork()
    .transactional((em) => appendEvent(em, { accountId, type: 'release.status_changed', payload: { n } }));

/** What one account's subscriber in this process receives from `events`, from now on. */
async function subscriber(events: PubSub, accountId: string): Promise<PublishedEvent[]> {
  stops.push(() => events.close());
  const received: PublishedEvent[] = [];
  const controller = new AbortController();
  stops.push(async () => controller.abort());
  void (async () => {
    for await (const event of streamEvents(orm().em, events, { accountId }, null, controller.signal))
      received.push(event);
  })();
  await new Promise((resolve) => setTimeout(resolve, 300)); // listening, and the last cursor read
  return received;
}

/** Another process's relay assigns cursors to what is in the outbox and dies before publishing. */
async function relayKilledBeforePublishing(): Promise<void> {
  const killed = new OutboxRelay(orm(), { ...createLocalPubSub(), publish: async () => {} }, logger);
  await killed.start();
  await killed.kick();
  await killed.stop();
}

/** The surviving process's relay, publishing to this process's transport. */
async function survivingRelay(transport: PubSub): Promise<void> {
  const relay = new OutboxRelay(orm(), transport, logger);
  await relay.start();
  stops.push(() => relay.stop());
}

/**
 * This process's view of the shared pub/sub (Redis in production: any transport does), with the gap
 * fill reading the outbox, and what one account's subscriber receives through it.
 */
async function listening(accountId: string) {
  const transport = createLocalPubSub();
  const events = withGapFill(transport, {
    lastCursor: () => lastPublishedCursor(orm().em.fork()),
    between: (after, before) => publishedBetween(orm().em.fork(), after, before),
  });
  return { transport, received: await subscriber(events, accountId) };
}

describe('events from other processes, with holes filled from the outbox', () => {
  it('a relay killed between its commit and its publish: the next event brings the missed ones first, in order', async () => {
    const accountId = randomUUID();
    const { transport, received } = await listening(accountId);

    // Another process's relay assigns cursors to two events and dies before publishing them.
    await emit(accountId, 1);
    await emit(accountId, 2);
    await relayKilledBeforePublishing();
    // The surviving process's relay publishes the next one.
    await survivingRelay(transport);
    await emit(accountId, 3);

    await vi.waitFor(() => expect(received).toHaveLength(3));
    expect(received.map((e) => e.payload.n)).toEqual([1, 2, 3]);
    expect(received.map((e) => e.cursor)).toEqual([...received.map((e) => e.cursor)].sort((a, b) => a - b));
  });

  it('a publish that fails after the commit: the relay announces again until it goes through, no later event needed', async () => {
    const accountId = randomUUID();
    const { transport, received } = await listening(accountId);
    // Redis as a process's relay may meet it just after an outage: the commit goes through, the
    // announcement fails, and no listener's connection comes back afterwards to read the outbox.
    let reachable = false;
    const attempts: number[][] = [];
    const flaky: PubSub = {
      ...transport,
      publish: async (published) => {
        attempts.push(published.map((e) => e.payload.n as number));
        if (!reachable) throw new Error('Redis is unreachable');
        await transport.publish(published);
      },
    };
    await survivingRelay(flaky);

    await emit(accountId, 1);
    await emit(accountId, 2);
    await vi.waitFor(() => expect(attempts.flat()).toContain(2), { timeout: 5_000 });
    reachable = true;

    await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 5_000 });
    expect(received.map((e) => e.payload.n)).toEqual([1, 2]);
    // What went through again was the newest alone: the listeners read the one before it from the outbox.
    expect(attempts.at(-1)).toEqual([2]);
  });

  it('an outbox read that fails is retried: the missed events still come first, in order', async () => {
    const accountId = randomUUID();
    const transport = createLocalPubSub();
    let failures = 1;
    const errors: Error[] = [];
    const events = withGapFill(
      transport,
      {
        lastCursor: () => lastPublishedCursor(orm().em.fork()),
        between: async (after, before) => {
          if (failures-- > 0) throw new Error('connection lost');
          return publishedBetween(orm().em.fork(), after, before);
        },
      },
      (err) => errors.push(err),
    );
    const received = await subscriber(events, accountId);

    await emit(accountId, 1);
    await relayKilledBeforePublishing();
    await survivingRelay(transport);
    await emit(accountId, 2);

    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received.map((e) => e.payload.n)).toEqual([1, 2]);
    expect(errors.map((e) => e.message)).toEqual(['connection lost']);
  });
});
