import type { MikroORM } from '@mikro-orm/postgresql';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { reportFailure } from '../../platform/db/report-failure.ts';
import type { PublishedEvent, PubSub } from '../../platform/events/pubsub.ts';
import type { Logger } from '../../platform/logger.ts';
import { type DispatchResult, dispatchEvents, publishedEventsAfter, readDispatchCursor } from './dispatch.ts';

/** Events fanned out per transaction when a burst queues up. */
const BATCH = 100;

const REPLAY_PAGE = 500;

export interface WebhookDispatcherOptions {
  orm: MikroORM;
  pubsub: PubSub;
  logger: Logger;
  clock?: Clock;
  /** How often the outbox is re-read as a safety net for lost pub/sub messages (default 5 s). */
  catchUpMs?: number;
  /** Wait before retrying after a failure (default 1 s). */
  retryMs?: number;
  /** Called after an event queued deliveries, so the webhook sender need not wait for its next poll. */
  onQueued?: () => void;
  /** Hears each batch's fan-out: deliveries created pending and suppressed (metrics). */
  onDispatched?: (result: DispatchResult) => void;
}

export interface WebhookDispatcher {
  /** The cursor of the last event this dispatcher handled. */
  lastCursor(): number;
  stop(): Promise<void>;
}

/**
 * The webhook dispatcher: one more subscriber of the release event stream, with a persisted cursor.
 * It listens first (buffering), replays everything published after the persisted cursor from the
 * outbox, then handles live events in order, skipping cursors it has already handled. On a failure it
 * waits and replays from its last handled event, so nothing is skipped; a crash resumes from the
 * persisted cursor. One per process is fine: fan-out is idempotent (UNIQUE (endpoint, event)).
 */
export async function startWebhookDispatcher(options: WebhookDispatcherOptions): Promise<WebhookDispatcher> {
  const { orm, pubsub, logger } = options;
  const clock = options.clock ?? systemClock;
  const queue: PublishedEvent[] = [];
  let stopped = false;
  let needReplay = true;
  let running: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  // Events can arrive before the persisted cursor is read (another process publishing while this one
  // starts): they wait in the queue until the dispatcher has started.
  let started = false;

  const unsubscribe = pubsub.subscribe((event) => {
    queue.push(event);
    if (started) kick();
  });
  let last: number;
  try {
    last = await readDispatchCursor(orm.em.fork());
  } catch (error) {
    unsubscribe();
    throw error;
  }

  /** Dispatches a batch (one transaction, one commit), skipping what was already handled. */
  const handle = async (events: PublishedEvent[]) => {
    const fresh = events.filter((event) => event.cursor > last);
    if (fresh.length === 0) return;
    const result = await dispatchEvents(orm.em.fork(), fresh, clock.now());
    last = Math.max(last, ...fresh.map((event) => event.cursor));
    options.onDispatched?.(result);
    if (result.queued > 0) options.onQueued?.();
  };

  const run = async () => {
    while (!stopped && (needReplay || queue.length > 0)) {
      if (needReplay) {
        needReplay = false;
        for (;;) {
          const page = await publishedEventsAfter(orm.em.fork(), last, REPLAY_PAGE);
          for (let i = 0; i < page.length && !stopped; i += BATCH) await handle(page.slice(i, i + BATCH));
          if (stopped) return;
          if (page.length < REPLAY_PAGE) break;
        }
      }
      if (queue.length > 0) await handle(queue.splice(0, BATCH));
    }
  };

  function kick(): void {
    if (stopped || running) return;
    running = run()
      .catch((err: unknown) => {
        reportFailure(logger, err, 'webhook dispatcher');
        // Everything queued is in the outbox: replay from the last handled event after a pause.
        queue.length = 0;
        needReplay = true;
        if (stopped) return;
        retryTimer ??= setTimeout(() => {
          retryTimer = null;
          kick();
        }, options.retryMs ?? 1000);
      })
      .finally(() => {
        running = null;
        if (!stopped && !retryTimer && (queue.length > 0 || needReplay)) kick();
      });
  }

  const catchUp = setInterval(() => {
    needReplay = true;
    kick();
  }, options.catchUpMs ?? 5000);
  catchUp.unref();
  started = true;
  kick();

  return {
    lastCursor: () => last,
    stop: async () => {
      stopped = true;
      unsubscribe();
      clearInterval(catchUp);
      if (retryTimer) clearTimeout(retryTimer);
      await running;
    },
  };
}
