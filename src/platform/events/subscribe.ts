import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublishedEvent, PubSub } from './pubsub.ts';
import { type EventFilter, eventsAfter, matches } from './replay.ts';

/**
 * A resumable stream: listens first (buffering), then replays what was published after `after` from
 * the outbox, then continues live, skipping anything already delivered. Nothing is missed between the
 * replay and the live half, because publication order is cursor order.
 */
export async function* streamEvents(
  em: EntityManager,
  pubsub: PubSub,
  filter: EventFilter,
  after: number | null,
  signal?: AbortSignal,
): AsyncGenerator<PublishedEvent> {
  const queue: PublishedEvent[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = pubsub.subscribe((event) => {
    if (!matches(event, filter)) return;
    queue.push(event);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) =>
    signal?.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    let last = after ?? Number.POSITIVE_INFINITY;
    if (after !== null) {
      for (;;) {
        const page = await eventsAfter(em.fork(), filter, last === Number.POSITIVE_INFINITY ? after : last);
        for (const event of page) {
          last = event.cursor;
          yield event;
        }
        if (page.length < 1000) break;
      }
      if (last === Number.POSITIVE_INFINITY) last = after;
    }
    while (!signal?.aborted) {
      const event = queue.shift();
      if (event) {
        if (last !== Number.POSITIVE_INFINITY && event.cursor <= last) continue;
        last = event.cursor;
        yield event;
        continue;
      }
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      wake = null;
    }
  } finally {
    unsubscribe();
  }
}
