import type { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { StoreAdapters } from '../domains/delivery/index.ts';
import type { Mailer } from '../domains/mail/index.ts';
import type { PaymentsPort } from '../domains/payments/index.ts';
import { startWebhookDispatcher, startWebhookSender } from '../domains/webhooks/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { AppConfig } from '../platform/config.ts';
import type { PubSub } from '../platform/events/pubsub.ts';
import type { OutboxRelay } from '../platform/events/relay.ts';
import type { OutboundClient } from '../platform/http/index.ts';
import { startJobs } from '../platform/jobs/index.ts';
import type { Logger } from '../platform/logger.ts';
import type { Metrics } from '../platform/metrics/index.ts';
import type { Scratch } from '../platform/scratch.ts';
import type { ObjectStorage } from '../platform/storage/object-storage.ts';
import { createWakeup } from '../platform/wakeup.ts';
import { queues } from '../queues.ts';
import { startAnalyticsRunner } from './analytics-runner.ts';
import { startAutoReloadRunner } from './auto-reload-runner.ts';
import { startDeliveryRunner } from './delivery-runner.ts';
import { startMailRunner } from './mail-runner.ts';
import { startOAuthSweeper } from './oauth-sweeper.ts';
import { startRegistryIndexer } from './registry-indexer.ts';
import { startUploadSweeper } from './upload-sweeper.ts';

export interface BackgroundDeps {
  config: Pick<AppConfig, 'WEBHOOK_TIMEOUT_SECONDS' | 'WEBHOOK_CONCURRENCY'>;
  storeAdapters: StoreAdapters;
  orm: MikroORM;
  logger: Logger;
  scratch: Scratch;
  storage: ObjectStorage;
  pubsub: PubSub;
  relay: OutboxRelay;
  webhookOutbound: OutboundClient;
  webhookSecretKey: Uint8Array;
  payments: PaymentsPort;
  mailer: Mailer;
  clock: Clock;
  metrics: Metrics;
}

/** Stops the background work; resolves with how many jobs and webhook sends were cut at the deadline. */
export type StopBackgroundWork = (deadline?: number) => Promise<number>;

/** How long running work gets to finish when the stop names no deadline. */
const DEFAULT_STOP_GRACE_MS = 10_000;

/**
 * The background work every server process runs beside the HTTP surfaces: the outbox relay, pg-boss
 * and the store-delivery and daily streams-ingestion and auto-reload jobs it works, the webhook dispatcher and sender, and the upload
 * sweeper, and the registry indexer (tracks of releases that go live). Each is safe to run on many instances at once. Returns a function that stops them all.
 *
 * The stop takes no new work anywhere at once, then lets the work running finish until the deadline:
 * pg-boss jobs still running then are failed back to their queue, webhook sends still in flight have
 * their rows made due again (both picked up later by any process).
 */
export async function startBackgroundWork(deps: BackgroundDeps): Promise<StopBackgroundWork> {
  const em = () => deps.orm.em.fork();
  await deps.relay.start();
  const stopSweeper = startUploadSweeper({ em, scratch: deps.scratch, logger: deps.logger });
  const stopOAuthSweeper = startOAuthSweeper({ em, logger: deps.logger });
  const stopIndexer = startRegistryIndexer({
    pubsub: deps.pubsub,
    em,
    storage: deps.storage,
    logger: deps.logger,
  });
  const jobs = await startJobs({ url: String(deps.orm.config.get('clientUrl')), logger: deps.logger });
  const stopDeliveries = await startDeliveryRunner({
    boss: jobs.boss,
    em,
    logger: deps.logger,
    adapters: deps.storeAdapters,
  });
  const stopAnalytics = await startAnalyticsRunner({ boss: jobs.boss, em, logger: deps.logger });
  const stopReloads = await startAutoReloadRunner({
    boss: jobs.boss,
    em,
    payments: deps.payments,
    logger: deps.logger,
  });
  const stopMail = await startMailRunner({
    boss: jobs.boss,
    em,
    logger: deps.logger,
    mailer: deps.mailer,
    clock: deps.clock,
    secretKey: deps.webhookSecretKey,
  });
  const webhookWork = createWakeup();
  const dispatcher = await startWebhookDispatcher({
    orm: deps.orm,
    pubsub: deps.pubsub,
    logger: deps.logger,
    onQueued: () => webhookWork.wake(),
    onDispatched: (result) => deps.metrics.countWebhookDeliveriesCreated(result),
  });
  // One pipeline per process keeps WEBHOOK_CONCURRENCY POSTs in flight (SKIP LOCKED claims keep it
  // and other processes off each other's rows).
  const stopWebhookSender = startWebhookSender({
    wakeup: webhookWork,
    orm: deps.orm,
    outbound: deps.webhookOutbound,
    secretKey: deps.webhookSecretKey,
    logger: deps.logger,
    timeoutSeconds: deps.config.WEBHOOK_TIMEOUT_SECONDS,
    concurrency: deps.config.WEBHOOK_CONCURRENCY,
    onRound: (result) => deps.metrics.countWebhookAttempts(result),
  });
  const removeGauges = addBackgroundGauges(deps, jobs.boss);
  return async (deadline = Date.now() + DEFAULT_STOP_GRACE_MS) => {
    for (const remove of removeGauges) remove();
    stopSweeper();
    stopOAuthSweeper();
    // pg-boss's stop first: it bounds every worker's wait by the deadline, which the runners' own
    // stops (waiting on their queue's worker) do not; by their turn the workers are gone.
    const [jobsCut, sendsCut] = await Promise.all([
      jobs.stop(deadline - Date.now()),
      stopWebhookSender(deadline),
      dispatcher.stop(),
      stopIndexer(),
    ]);
    await Promise.all([stopDeliveries(), stopAnalytics(), stopReloads(), stopMail()]);
    await deps.relay.stop();
    return jobsCut + sendsCut;
  };
}

/**
 * The gauges of the work queues, read when Prometheus scrapes: webhook deliveries waiting (due now, or
 * scheduled for a retry) and pg-boss's queue sizes as its monitor last counted them (every 60 s). Both
 * describe the whole deployment (every process reads the same rows).
 */
function addBackgroundGauges(deps: BackgroundDeps, boss: PgBoss): (() => void)[] {
  return [
    deps.metrics.addGauge(
      'tributary_webhook_queue_depth',
      'Webhook deliveries pending: due now (state="due") or waiting for a retry (state="scheduled"). Deployment-wide.',
      ['state'],
      async () => {
        const [row] = await deps.orm.em
          .fork()
          .execute<{ due: string | number; scheduled: string | number }[]>(
            `select count(*) filter (where next_attempt_at <= now()) as due,
                  count(*) filter (where next_attempt_at > now()) as scheduled
             from webhook_deliveries where status = 'pending'`,
          );
        return [
          { labels: { state: 'due' }, value: Number(row?.due ?? 0) },
          { labels: { state: 'scheduled' }, value: Number(row?.scheduled ?? 0) },
        ];
      },
    ),
    deps.metrics.addGauge(
      'tributary_job_queue_jobs',
      "pg-boss jobs by queue and state (ready, deferred, active, failed), as pg-boss's monitor last counted them (at most a minute old). Deployment-wide.",
      ['queue', 'state'],
      async () => {
        const found = await boss.getQueues(queues.map((queue) => queue.name));
        return found.flatMap((queue) => [
          { labels: { queue: queue.name, state: 'ready' }, value: queue.readyCount },
          { labels: { queue: queue.name, state: 'deferred' }, value: queue.deferredCount },
          { labels: { queue: queue.name, state: 'active' }, value: queue.activeCount },
          { labels: { queue: queue.name, state: 'failed' }, value: queue.failedCount },
        ]);
      },
    ),
  ];
}
