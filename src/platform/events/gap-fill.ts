import { createLocalPubSub, type PublishedEvent, type PubSub } from './pubsub.ts';

/** Where the missing events are read from: the outbox. */
export interface OutboxReader {
  lastCursor(): Promise<number>;
  /** Published events with `after < cursor < before`, in cursor order. */
  between(after: number, before: number): Promise<PublishedEvent[]>;
}

/**
 * Events from Redis, handed to this process's listeners with no hole in the cursor sequence.
 *
 * Every consumer (the webhook dispatcher, each subscription) skips cursors at or below the last one it
 * handled. When a process is killed between its relay's commit (cursors assigned) and its publish,
 * or a Redis connection drops messages, the next event announced is past cursors nobody announced,
 * and every consumer in every other process would skip them for good. So when an event's cursor is
 * more than one past the last one handed on, the published events in between are read from the outbox
 * and handed on first. A gap with nothing in it (sequence values of a relay transaction that rolled
 * back) costs one query; a failed read is retried with backoff until it answers (or the pub/sub is
 * closed). Events stay in cursor order: one is handed on only after those before it.
 * Nothing is dropped: a consumer already skips what it has handled (it may also have read an event
 * from the outbox in its own replay).
 */
export function withGapFill(
  pubsub: PubSub,
  outbox: OutboxReader,
  onError: (err: Error) => void = () => {},
): PubSub {
  const local = createLocalPubSub();
  let last: number | null = null;
  let closed = false;
  let chain: Promise<void> = outbox.lastCursor().then(
    (cursor) => {
      last ??= cursor;
    },
    (err: Error) => onError(err),
  );

  // A read of the outbox, again until it answers (null once closed): handing an event on without the
  // ones missed before it would move every consumer past them for good. Later events wait in the chain
  // meanwhile (order is kept).
  const retried = async <T>(read: () => Promise<T>): Promise<T | null> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read();
      } catch (err) {
        onError(err as Error);
        if (closed) return null;
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 5_000)));
      }
    }
  };
  const missedBefore = async (after: number, before: number): Promise<PublishedEvent[]> =>
    (await retried(() => outbox.between(after, before))) ?? [];
  const handOn = async (event: PublishedEvent) => {
    if (last !== null && event.cursor <= last) return; // already read from the outbox by a catch-up
    if (last !== null && event.cursor > last + 1) {
      for (const missed of await missedBefore(last, event.cursor)) await local.publish([missed]);
    }
    last = Math.max(last ?? 0, event.cursor);
    await local.publish([event]);
  };
  const unsubscribe = pubsub.subscribe((event) => {
    chain = chain.then(() => handOn(event)).catch((err: Error) => onError(err));
  });

  // Everything published up to the outbox's newest cursor, in pages, as if it had been announced.
  const readMissed = async () => {
    if (last === null) {
      // Nothing handed on yet and the first read failed: the outbox's newest cursor is where to start.
      last = await retried(() => outbox.lastCursor());
      return;
    }
    const newest = await retried(() => outbox.lastCursor());
    while (newest !== null && last < newest && !closed) {
      const before = Math.min(newest, last + CATCH_UP_PAGE) + 1;
      for (const missed of await missedBefore(last, before)) {
        if (missed.cursor > last) {
          last = missed.cursor;
          await local.publish([missed]);
        }
      }
      last = Math.max(last, before - 1);
    }
  };
  const catchUp = () => {
    chain = chain.then(readMissed).catch((err: Error) => onError(err));
    return chain;
  };
  // Whatever was announced while the connection was away never arrives: read it from the outbox.
  const stopHearingReconnects = pubsub.onReconnect(() => void catchUp());

  return {
    publish: (events) => pubsub.publish(events),
    subscribe: (listener) => local.subscribe(listener),
    invalidate: (invalidation) => pubsub.invalidate(invalidation),
    onInvalidation: (listener) => pubsub.onInvalidation(listener),
    onReconnect: (listener) => pubsub.onReconnect(listener),
    catchUp,
    close: async () => {
      closed = true;
      unsubscribe();
      stopHearingReconnects();
      await chain;
      await local.close();
      await pubsub.close();
    },
  };
}

/** Cursors read from the outbox per query when catching up after a lost connection. */
const CATCH_UP_PAGE = 1_000;
