import { type Profile, VERIFIED_TOKENS_CACHE, VerifiedTokens } from '../src/domains/accounts/index.ts';
import { type AiDetector, createHttpAiDetector, createLocalAiDetector } from '../src/domains/audio/index.ts';
import { type ImageGenerator, imageGeneratorFor } from '../src/domains/cover-art/index.ts';
import { createSandboxAdapter, createSftpAdapter } from '../src/domains/delivery/adapters/index.ts';
import {
  createDeliveryDistributor,
  type Distributor,
  ReleaseStatusCache,
  type StoreAdapter,
  type StoreAdapters,
  storeAdapters,
} from '../src/domains/delivery/index.ts';
import { type Mailer, mailerFor } from '../src/domains/mail/index.ts';
import { type AuthorizationCodes, NO_AUTHORIZATION_CODES } from '../src/domains/partners/index.ts';
import {
  createSandboxPayments,
  createStripePayments,
  type PaymentsPort,
} from '../src/domains/payments/index.ts';
import { listStoreConnections, senderIdentity } from '../src/domains/store-connections/index.ts';
import { CoverThumbnails } from '../src/domains/uploads/index.ts';
import { commitAnnouncer } from '../src/platform/cache/commit-announcer.ts';
import { COMMIT_INVALIDATION, CommitClearedCache } from '../src/platform/cache/commit-cleared-cache.ts';
import { type Clock, systemClock } from '../src/platform/clock.ts';
import type { AppConfig } from '../src/platform/config.ts';
import { ConnectionState } from '../src/platform/connection-state.ts';
import { isCacheNeutral } from '../src/platform/db/cache-neutral.ts';
import type { Orm } from '../src/platform/db/orm.ts';
import { isDatabaseUnavailable } from '../src/platform/db/unavailable.ts';
import { withGapFill } from '../src/platform/events/gap-fill.ts';
import { withPostgresInvalidations } from '../src/platform/events/postgres-invalidations.ts';
import { createLocalPubSub, createRedisPubSub, type PubSub } from '../src/platform/events/pubsub.ts';
import { OutboxRelay } from '../src/platform/events/relay.ts';
import { lastPublishedCursor, publishedBetween } from '../src/platform/events/replay.ts';
import { HealthMonitor } from '../src/platform/health.ts';
import {
  createOutboundClient,
  type OutboundClient,
  outboundPolicyFromConfig,
} from '../src/platform/http/index.ts';
import type { Logger } from '../src/platform/logger.ts';
import { type CacheStats, Metrics } from '../src/platform/metrics/index.ts';
import { createRateLimits, type RateLimits } from '../src/platform/rate-limit/index.ts';
import { redisNamespace } from '../src/platform/redis-namespace.ts';
import { createScratch, type Scratch } from '../src/platform/scratch.ts';
import { loadSecretKey } from '../src/platform/secret-box.ts';
import { createStorage, loadSigningSecret } from '../src/platform/storage/index.ts';
import type { ObjectStorage } from '../src/platform/storage/object-storage.ts';

/** Long-lived things every request can reach: built once at start-up, shared by all surfaces. */
export interface AppServices {
  config: AppConfig;
  orm: Orm;
  logger: Logger;
  storage: ObjectStorage;
  /** The HMAC key of local signed download URLs (null with S3, which presigns). */
  storageSigningSecret: string | null;
  /** Cover thumbnails: their signed same-origin URLs (whatever the driver) and the images behind them. */
  coverThumbnails: CoverThumbnails;
  scratch: Scratch;
  outbound: OutboundClient;
  rateLimits: RateLimits;
  /** The Distributor port: who delivers releases to stores (DISTRIBUTOR; the delivery core by default). */
  distributor: Distributor;
  /** Which adapter delivers to which store (the sandbox for every store today); the delivery jobs use it. */
  storeAdapters: StoreAdapters;
  /** The image-generation port (COVER_ART_PROVIDER; procedural by default, null when turned off). */
  imageGenerator: ImageGenerator | null;
  /** The payments port: Stripe with STRIPE_SECRET_KEY, else the sandbox (pages of ours, test cards). */
  payments: PaymentsPort;
  /** The AI-audio detection port: the local spectral analyser, or a vendor (AI_DETECTION_URL). */
  aiDetector: AiDetector;
  /** Published events (in-process, or Redis with REDIS_URL) and the relay that publishes the outbox. */
  pubsub: PubSub;
  relay: OutboxRelay;
  /** Tokens verified in the last seconds (a revocation drops one in every instance). */
  verifiedTokens: VerifiedTokens;
  /** Prometheus metrics of this process (GET /metrics; docs/metrics.md). */
  metrics: Metrics;
  /** The database's health, pinged in the background for the service status. */
  health: HealthMonitor;
  /** Recorded deliveries of releases, for status polling (cleared on every commit; docs/hot-paths.md). */
  releaseStatuses: ReleaseStatusCache;
  /** Profiles as `me` answers them, by account id (cleared on every commit; docs/hot-paths.md). */
  profiles: CommitClearedCache<Profile>;
  /** Seals webhook signing secrets at rest; the webhook client posts to user URLs (no redirects). */
  webhookSecretKey: Buffer;
  webhookOutbound: OutboundClient;
  /** Mints authorization codes for the partner flow; set by the authorization server when it mounts. */
  authorizationCodes: AuthorizationCodes;
  /** The mail port: SMTP with SMTP_URL, else the embedded outbox (docs/partners.md). */
  mailer: Mailer;
  /** Time as the verified-email codes see it (tests move it). */
  clock: Clock;
  startedAt: Date;
  version: string;
}

/** The safety net of the profile cache: a cached profile is at most this old. */
const PROFILE_CACHE_TTL_MS = 5_000;

/**
 * The store adapters: the stores connected over SFTP when the process starts on DDEX over SFTP, every
 * other store on the one DISTRIBUTOR names (`sandbox`, the only choice yet). A store connected or
 * disconnected later changes adapter when the processes next start.
 */
export async function storeAdaptersFor(
  config: AppConfig,
  orm: Orm,
  storage: ObjectStorage,
  secretKey: Uint8Array,
): Promise<StoreAdapters> {
  const unconnected = createSandboxAdapter({ stepSeconds: config.SANDBOX_STEP_SECONDS });
  const sender = senderIdentity(config);
  const connected = sender ? await listStoreConnections(orm.em.fork()) : [];
  if (!sender || connected.length === 0) return storeAdapters(unconnected);
  const sftp = createSftpAdapter({
    storage,
    secretKey,
    sender,
    settings: {
      retrySeconds: config.SFTP_RETRY_SECONDS,
      maxAttempts: config.SFTP_MAX_ATTEMPTS,
      ackPollSeconds: config.SFTP_ACK_POLL_SECONDS,
      ackWindowSeconds: config.SFTP_ACK_WINDOW_SECONDS,
    },
  });
  return storeAdapters(
    unconnected,
    new Map<number, StoreAdapter>(connected.map((connection) => [connection.storeId, sftp])),
  );
}

function paymentsFor(config: AppConfig, secretKey: Uint8Array): PaymentsPort {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET && config.STRIPE_PUBLISHABLE_KEY) {
    return createStripePayments({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      publishableKey: config.STRIPE_PUBLISHABLE_KEY,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return createSandboxPayments({ publicUrl: config.PUBLIC_URL, secretKey });
}

/** The AI detector the settings name: a vendor over HTTP with AI_DETECTION_URL, else the local one. */
function aiDetectorFor(config: AppConfig): AiDetector {
  if (!config.AI_DETECTION_URL) return createLocalAiDetector();
  return createHttpAiDetector({
    url: config.AI_DETECTION_URL,
    apiKey: config.AI_DETECTION_API_KEY,
    timeoutSeconds: config.AI_DETECTION_TIMEOUT_SECONDS,
    outbound: createOutboundClient({
      policy: outboundPolicyFromConfig(config),
      timeoutSeconds: config.AI_DETECTION_TIMEOUT_SECONDS,
    }),
  });
}

/** Builds the services from configuration: the same wiring for the server, the tests and the benches. */
export async function buildAppServices(
  config: AppConfig,
  orm: Orm,
  logger: Logger,
  version: string,
  overrides: Partial<
    Pick<
      AppServices,
      | 'storage'
      | 'outbound'
      | 'webhookOutbound'
      | 'rateLimits'
      | 'distributor'
      | 'imageGenerator'
      | 'payments'
      | 'clock'
    >
  > = {},
): Promise<AppServices> {
  const webhookSecretKey = loadSecretKey(config.DATA_DIR, config.WEBHOOK_SECRET_KEY);
  // Local downloads and thumbnail URLs are signed by the service itself; S3 presigns its downloads.
  const urlSigningSecret = await loadSigningSecret(config);
  const signingSecret = config.STORAGE_DRIVER === 'local' ? urlSigningSecret : null;
  const connections = {
    database: new ConnectionState(
      'the database',
      logger,
      'requests that need it answer 503 with Retry-After, events wait in the outbox; retrying every second',
    ),
    redis: new ConnectionState(
      'Redis',
      logger,
      'rate limits count in each process, events reach the other processes when it is back; retrying every second',
    ),
  };
  const databaseUrl = String(orm.config.get('clientUrl'));
  const redis = config.REDIS_URL
    ? { url: config.REDIS_URL, namespace: redisNamespace(config.REDIS_NAMESPACE, databaseUrl) }
    : undefined;
  // Events published while a connection was away are read again from the outbox (gap fill), with or
  // without Redis.
  const pubsub = withGapFill(
    redis
      ? createRedisPubSub(redis.url, redis.namespace, connections.redis)
      : withPostgresInvalidations(createLocalPubSub(), databaseUrl, connections.database),
    {
      lastCursor: () => lastPublishedCursor(orm.em.fork()),
      between: (after, before) => publishedBetween(orm.em.fork(), after, before),
    },
    (err) =>
      isDatabaseUnavailable(err) ? connections.database.down(err) : logger.warn({ err }, 'pub/sub gap fill'),
  );
  const health = new HealthMonitor(() => orm.em.fork().execute('select 1'), {
    database: connections.database,
    ...(redis ? { redis: connections.redis } : {}),
  });
  // Pinged from the start, so an outage is noticed (and its end logged) without a status request.
  health.start();
  const verifiedTokens = new VerifiedTokens((tokenId) =>
    pubsub.invalidate({ cache: VERIFIED_TOKENS_CACHE, key: tokenId }),
  );
  const storage = overrides.storage ?? createStorage(config, { signingSecret: urlSigningSecret });
  const adapters = await storeAdaptersFor(config, orm, storage, webhookSecretKey);
  const releaseStatuses = new ReleaseStatusCache(adapters);
  const profiles = new CommitClearedCache<Profile>('profile', { max: 20_000, ttlMs: PROFILE_CACHE_TTL_MS });
  const clearedOnCommit = [releaseStatuses, profiles];
  pubsub.onInvalidation(({ cache, key }) => {
    if (cache === VERIFIED_TOKENS_CACHE) verifiedTokens.drop(key);
    if (cache === COMMIT_INVALIDATION) for (const each of clearedOnCommit) each.clear();
  });
  // Invalidations sent while the connection was away never arrive: forget everything cached.
  pubsub.onReconnect(() => {
    verifiedTokens.clear();
    for (const each of clearedOnCommit) each.clear();
  });
  clearOnCommit(orm, clearedOnCommit, pubsub, logger);
  const metrics = createMetrics(orm, logger, [verifiedTokens, ...clearedOnCommit]);
  return {
    config,
    orm,
    logger,
    storage,
    storageSigningSecret: signingSecret,
    coverThumbnails: new CoverThumbnails({
      storage,
      signingSecret: urlSigningSecret,
      publicUrl: config.PUBLIC_URL,
    }),
    scratch: createScratch(config.DATA_DIR),
    outbound:
      overrides.outbound ??
      createOutboundClient({
        policy: outboundPolicyFromConfig(config),
        timeoutSeconds: config.OUTBOUND_TIMEOUT_SECONDS,
      }),
    rateLimits:
      overrides.rateLimits ??
      createRateLimits({
        databaseUrl,
        redis,
        connection: connections.redis,
        onConnectionError: (err) => connections.database.down(err),
      }),
    distributor: overrides.distributor ?? createDeliveryDistributor({ adapters }),
    storeAdapters: adapters,
    imageGenerator:
      overrides.imageGenerator !== undefined ? overrides.imageGenerator : imageGeneratorFor(config),
    payments: overrides.payments ?? paymentsFor(config, webhookSecretKey),
    aiDetector: aiDetectorFor(config),
    pubsub,
    relay: new OutboxRelay(
      orm,
      pubsub,
      logger,
      (seconds) => metrics.observeRelayLag(seconds),
      connections.database,
    ),
    metrics,
    verifiedTokens,
    releaseStatuses,
    profiles,
    health,
    webhookSecretKey,
    webhookOutbound:
      overrides.webhookOutbound ??
      createOutboundClient({
        policy: outboundPolicyFromConfig(config),
        timeoutSeconds: config.WEBHOOK_TIMEOUT_SECONDS,
        maxRedirects: 0,
        // A receiver sees at most as many connections as this process has sends in flight.
        connectionsPerOrigin: config.WEBHOOK_CONCURRENCY,
      }),
    authorizationCodes: NO_AUTHORIZATION_CODES,
    mailer: mailerFor(config, () => orm.em.fork()),
    clock: overrides.clock ?? systemClock,
    startedAt: new Date(),
    version,
  };
}

/** The process's metrics with what the services hold: cache hit counts, the pool, the outbox backlog. */
function createMetrics(orm: Orm, logger: Logger, caches: CacheStats[]): Metrics {
  const metrics = new Metrics({
    onCollectError: (family, err) => logger.warn({ err, family }, 'metrics: a family could not be read'),
  });
  for (const cache of caches) metrics.addCache(cache);
  metrics.addGauge(
    'tributary_db_pool_connections',
    'Connections of the database pool (MikroORM/pg) of this process: open, idle, in use, and requests waiting for one.',
    ['state'],
    async () => {
      const pool = await orm.em.getConnection().getNativeClient();
      return [
        { labels: { state: 'open' }, value: pool.totalCount },
        { labels: { state: 'idle' }, value: pool.idleCount },
        { labels: { state: 'in_use' }, value: pool.totalCount - pool.idleCount },
        { labels: { state: 'waiting' }, value: pool.waitingCount },
        { labels: { state: 'max' }, value: pool.options.max ?? 0 },
      ];
    },
  );
  metrics.addGauge(
    'tributary_outbox_unpublished',
    'Outbox events not yet published by the relay (count), and the age in seconds of the oldest.',
    ['measure'],
    async () => {
      const [row] = await orm.em.fork().execute<{ count: string | number; oldest: string | number | null }[]>(
        `select count(*) as count, extract(epoch from now() - min(created_at)) as oldest
             from outbox_events where cursor is null`,
      );
      return [
        { labels: { measure: 'events' }, value: Number(row?.count ?? 0) },
        { labels: { measure: 'oldest_age_seconds' }, value: Math.max(0, Number(row?.oldest ?? 0)) },
      ];
    },
  );
  return metrics;
}

/**
 * Every transaction this process commits clears the read caches here and, announced within 20 ms
 * (`commitAnnouncer`), in every other process: coarse, but no write path (entity, raw SQL inside a
 * transaction) can be missed. Webhook bookkeeping, marked cache-neutral, is the one exception.
 */
function clearOnCommit(orm: Orm, caches: { clear(): void }[], pubsub: PubSub, logger: Logger): void {
  const committed = commitAnnouncer(() => {
    pubsub
      .invalidate({ cache: COMMIT_INVALIDATION, key: '*' })
      .catch((err: Error) => logger.warn({ err }, 'read cache invalidation'));
  });
  orm.em.getEventManager().registerSubscriber({
    afterTransactionCommit: ({ transaction }) => {
      if (isCacheNeutral(transaction)) return;
      for (const cache of caches) cache.clear();
      committed();
    },
  });
}

/** Releases what the services hold besides the ORM (pools, clients). */
export async function closeAppServices(app: AppServices): Promise<void> {
  app.health.stop();
  await app.relay.stop();
  await app.pubsub.close();
  await app.rateLimits.close();
  await app.outbound.close();
  await app.webhookOutbound.close();
  await app.mailer.close();
}
