import type { MikroORM } from '@mikro-orm/postgresql';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { reportFailure } from '../../platform/db/report-failure.ts';
import type { OutboundClient } from '../../platform/http/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { createWakeup, type Wakeup } from '../../platform/wakeup.ts';
import { type ClaimedWebhookDelivery, claimDue, releaseClaims } from './claim.ts';
import { ClaimQueue } from './claim-queue.ts';
import type { Sent } from './record.ts';
import { failedOutcome, secretOpener, sendWebhook } from './send.ts';
import { leaseUntil, recordSent, type SendCounts } from './send-due.ts';

const IDLE_MS = 250;
/** Sends in flight per process by default (the server sets WEBHOOK_CONCURRENCY). */
export const DEFAULT_WEBHOOK_CONCURRENCY = 64;
/** Outcomes recorded per statement at most. */
const RECORD_BATCH = 500;

export interface WebhookSenderOptions {
  orm: MikroORM;
  outbound: OutboundClient;
  secretKey: Uint8Array;
  logger: Logger;
  clock?: Clock;
  /** The outbound client's timeout (claim lease); default 30 s. */
  timeoutSeconds?: number;
  /** Sends in flight at most (default DEFAULT_WEBHOOK_CONCURRENCY). */
  concurrency?: number;
  /** Woken when deliveries are queued (idle polls are the safety net). */
  wakeup?: Wakeup;
  /** Hears outcomes as they are recorded (metrics). */
  onRound?: (result: SendCounts) => void;
}

/**
 * Sends due webhook deliveries as a pipeline: it keeps up to `concurrency` POSTs in flight from a
 * queue of claimed rows, claims (one statement, SKIP LOCKED) a batch of at least `concurrency` rows
 * whenever the queue has room for one, and records outcomes in batches while the next ones are sent.
 * The queue holds up to twice `concurrency` rows so that sends go on while a claim waits on
 * PostgreSQL; large claims keep PostgreSQL's cost per delivery low (most of a claim's cost is per
 * statement). Polls at most 250 ms apart when idle. Any number of senders may run, in any number of
 * processes.
 *
 * The function returned stops it: no more claims, the rows claimed but not sent made due again, the
 * sends in flight finished and recorded. Sends still in flight at the optional `deadline` (epoch ms)
 * are given up: their rows are made due again too (sent again later, at least once as always) and
 * their outcomes, should they come, are not recorded. Resolves with how many were given up.
 */
export function startWebhookSender(options: WebhookSenderOptions): (deadline?: number) => Promise<number> {
  const clock = options.clock ?? systemClock;
  const concurrency = options.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  const timeoutSeconds = options.timeoutSeconds ?? 30;
  const wakeup = options.wakeup ?? createWakeup();
  const sendDeps = {
    outbound: options.outbound,
    secretKey: options.secretKey,
    openSecret: secretOpener(options.secretKey),
    clock,
  };
  /** Claimed rows at most, in flight or queued. */
  const held = 3 * concurrency;
  let stopped = false;
  let stopDeadline = Number.POSITIVE_INFINITY;
  let givenUp = false;
  let inFlight = 0;
  const sending = new Set<ClaimedWebhookDelivery>();
  const queued = new ClaimQueue();
  let slotFreed: (() => void) | null = null;

  const recorder = outcomeRecorder(options, clock);

  const fillSlots = () => {
    while (inFlight < concurrency && !stopped) {
      const row = queued.next(clock.now());
      if (!row) return;
      inFlight++;
      sending.add(row);
      // sendWebhook answers every failure as an outcome; a rejection all the same is recorded as a
      // failed attempt too, so the slot is always given back.
      void sendWebhook(row, sendDeps)
        .catch((error: unknown) => failedOutcome(error, 0))
        .then((outcome) => {
          if (givenUp) return;
          sending.delete(row);
          inFlight--;
          recorder.add({ row, outcome });
          fillSlots();
          slotFreed?.();
        });
    }
  };

  const room = () => held - inFlight - queued.size;
  /** Resolves once the queue has room for a batch of `concurrency` rows. */
  const roomForBatch = async () => {
    while (room() < concurrency && !stopped) {
      await new Promise<void>((resolve) => {
        slotFreed = resolve;
      });
      slotFreed = null;
    }
  };

  const loop = async () => {
    while (!stopped) {
      await roomForBatch();
      if (stopped) break;
      let claimed: ClaimedWebhookDelivery[] = [];
      const now = clock.now();
      try {
        claimed = await claimDue(options.orm.em.fork(), now, room(), leaseUntil(now, timeoutSeconds));
      } catch (err) {
        reportFailure(options.logger, err, 'webhook sender');
      }
      queued.add(claimed, now);
      fillSlots();
      if (claimed.length === 0 && !stopped) await wakeup.sleep(IDLE_MS);
    }
    // Rows claimed but not sent are made due again now rather than when their lease ends.
    const unsent = queued.takeAll();
    if (unsent.length > 0) {
      await releaseClaims(options.orm.em.fork(), unsent, clock.now()).catch((err) =>
        reportFailure(options.logger, err, 'webhook sender: releasing claims'),
      );
    }
    let pastDeadline = false;
    const late = Number.isFinite(stopDeadline)
      ? setTimeout(
          () => {
            pastDeadline = true;
            slotFreed?.();
          },
          Math.max(0, stopDeadline - Date.now()),
        )
      : undefined;
    while (inFlight > 0 && !pastDeadline) {
      await new Promise<void>((resolve) => {
        slotFreed = resolve;
      });
    }
    clearTimeout(late);
    const abandoned = [...sending];
    if (abandoned.length > 0) {
      givenUp = true;
      await releaseClaims(options.orm.em.fork(), abandoned, clock.now()).catch((err) =>
        options.logger.error({ err }, 'webhook sender: releasing claims'),
      );
    }
    await recorder.drain();
    return abandoned.length;
  };
  const running = loop();
  return async (deadline = Number.POSITIVE_INFINITY) => {
    stopDeadline = deadline;
    stopped = true;
    wakeup.wake();
    slotFreed?.();
    return running;
  };
}

/** Batches outcomes: one recording at a time, taking everything that arrived meanwhile. */
function outcomeRecorder(options: WebhookSenderOptions, clock: Clock) {
  const pending: Sent[] = [];
  let recording: Promise<void> | null = null;

  const record = async () => {
    while (pending.length > 0) {
      const batch = pending.splice(0, RECORD_BATCH);
      try {
        const result = await recordSent(options.orm.em.fork(), batch, clock.now());
        options.onRound?.({ ...result, claimed: batch.length });
      } catch (err) {
        // The rows stay leased and are sent again when the lease ends (at-least-once).
        reportFailure(options.logger, err, 'webhook delivery outcomes');
      }
    }
    recording = null;
  };
  return {
    add(sent: Sent) {
      pending.push(sent);
      recording ??= record();
    },
    async drain() {
      while (recording) await recording;
    },
  };
}
