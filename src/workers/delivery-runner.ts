import type { EntityManager } from '@mikro-orm/postgresql';
import { advanceDue, nextDueAt } from '../domains/delivery/advance-due.ts';
import { type Clock, systemClock } from '../domains/delivery/clock.ts';
import type { Logger } from '../platform/logger.ts';

/** At most this long between looks, so work scheduled by another instance is picked up promptly. */
const MAX_SLEEP_MS = 1000;

/**
 * Moves due store deliveries, one step at a time. The schedule lives in the `deliveries` rows
 * (next_step_at), claimed with SKIP LOCKED: any number of instances may run this, and a restart
 * resumes exactly where the rows say.
 */
export function startDeliveryRunner(deps: {
  em: () => EntityManager;
  logger: Logger;
  stepSeconds: number;
  clock?: Clock;
}) {
  const clock = deps.clock ?? systemClock;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const loop = async () => {
    if (stopped) return;
    let sleep = MAX_SLEEP_MS;
    try {
      const result = await advanceDue(deps.em(), clock, deps.stepSeconds);
      if (result.moved > 0) sleep = 0;
      else {
        const due = await nextDueAt(deps.em());
        if (due) sleep = Math.max(0, Math.min(MAX_SLEEP_MS, due.getTime() - clock.now().getTime()));
      }
    } catch (err) {
      deps.logger.error({ err }, 'delivery runner');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), sleep);
  };
  running = loop();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}
