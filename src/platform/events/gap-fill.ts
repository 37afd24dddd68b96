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
 * back) costs one query. Events stay in cursor order: one is handed on only after those before it.
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
  let chain: Promise<void> = outbox.lastCursor().then(
    (cursor) => {
      last ??= cursor;
    },
    (err: Error) => onError(err),
  );

  const handOn = async (event: PublishedEvent) => {
    if (last !== null && event.cursor > last + 1) {
      try {
        for (const missed of await outbox.between(last, event.cursor)) await local.publish([missed]);
      } catch (err) {
        onError(err as Error);
      }
    }
    last = Math.max(last ?? 0, event.cursor);
    await local.publish([event]);
  };
  const unsubscribe = pubsub.subscribe((event) => {
    chain = chain.then(() => handOn(event)).catch((err: Error) => onError(err));
  });

  return {
    publish: (events) => pubsub.publish(events),
    subscribe: (listener) => local.subscribe(listener),
    invalidate: (invalidation) => pubsub.invalidate(invalidation),
    onInvalidation: (listener) => pubsub.onInvalidation(listener),
    close: async () => {
      unsubscribe();
      await chain;
      await local.close();
      await pubsub.close();
    },
  };
}
