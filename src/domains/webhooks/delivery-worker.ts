import type { MikroORM } from '@mikro-orm/postgresql';
import type { OutboundClient } from '../../platform/http/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { createWakeup, type Wakeup } from '../../platform/wakeup.ts';
import { type Clock, systemClock } from '../delivery/clock.ts';
import { type DeliverResult, deliverDue } from './deliver.ts';

const IDLE_MS = 250;

export interface DeliveryWorkerOptions {
  orm: MikroORM;
  outbound: OutboundClient;
  secretKey: Uint8Array;
  logger: Logger;
  clock?: Clock;
  /** The outbound client's timeout (claim lease); default 30 s. */
  timeoutSeconds?: number;
  /** Deliveries sent concurrently per round (default 10). */
  batch?: number;
  /** Woken when deliveries are queued (idle polls are the safety net). */
  wakeup?: Wakeup;
  /** Hears each round's outcomes (metrics). */
  onRound?: (result: DeliverResult) => void;
}

/**
 * Polls for due webhook deliveries (at most 250 ms apart when idle, at once after a busy round).
 * Any number of workers may run, in any number of processes (SKIP LOCKED claims).
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): () => Promise<void> {
  const clock = options.clock ?? systemClock;
  let stopped = false;
  const wakeup = options.wakeup ?? createWakeup();
  let running: Promise<void> = Promise.resolve();

  const loop = async () => {
    while (!stopped) {
      await round();
    }
  };
  const round = async () => {
    let sleep = IDLE_MS;
    try {
      const result = await deliverDue(
        options.orm.em.fork(),
        {
          outbound: options.outbound,
          secretKey: options.secretKey,
          now: clock.now(),
          timeoutSeconds: options.timeoutSeconds ?? 30,
        },
        options.batch ?? 10,
      );
      options.onRound?.(result);
      if (result.claimed > 0) sleep = 0;
    } catch (err) {
      options.logger.error({ err }, 'webhook delivery worker');
    }
    if (!stopped && sleep > 0) await wakeup.sleep(sleep);
  };
  running = loop();
  return async () => {
    stopped = true;
    wakeup.wake();
    await running;
  };
}
