import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublishedEvent, PubSub } from './pubsub.ts';
import { type EventFilter, eventsAfter, matches } from './replay.ts';

/** What a resumable stream is made of: a transport may fan it out itself instead of iterating it. */
export interface EventStreamSpec {
  em: EntityManager;
  pubsub: PubSub;
  filter: EventFilter;
  /** Replay everything published after this cursor first; null = live only. */
  after: number | null;
}

/** A resumable stream of the events matching a filter (iterate it, or read its spec). */
export class EventStream implements AsyncIterable<PublishedEvent> {
  readonly spec: EventStreamSpec;

  constructor(spec: EventStreamSpec) {
    this.spec = spec;
  }

  [Symbol.asyncIterator](): AsyncGenerator<PublishedEvent> {
    const { em, pubsub, filter, after } = this.spec;
    return streamEvents(em, pubsub, filter, after);
  }
}

/** Everything published after `after`, from the outbox, in cursor order (pages of 1,000). */
export async function* replayAfter(
  em: EntityManager,
  filter: EventFilter,
  after: number,
): AsyncGenerator<PublishedEvent> {
  let last = after;
  for (;;) {
    const page = await eventsAfter(em.fork(), filter, last);
    for (const event of page) {
      last = event.cursor;
      yield event;
    }
    if (page.length < 1000) return;
  }
}

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
    let last = after ?? Number.NEGATIVE_INFINITY;
    if (after !== null) {
      for await (const event of replayAfter(em, filter, after)) {
        last = event.cursor;
        yield event;
      }
    }
    while (!signal?.aborted) {
      const event = queue.shift();
      if (event) {
        if (event.cursor <= last) continue;
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
