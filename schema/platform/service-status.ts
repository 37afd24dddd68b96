import { builder, PUBLIC } from '../builder.ts';
import { enumFromList } from '../enums.ts';

const SERVICE_HEALTH = ['ok', 'degraded'] as const;
const DATABASE_HEALTH = ['ok', 'unreachable'] as const;
const REDIS_HEALTH = ['ok', 'unreachable', 'not_configured'] as const;

const ServiceHealthEnum = enumFromList('ServiceHealth', SERVICE_HEALTH, {
  description: 'Whether the service can do its work.',
  valueDescriptions: {
    ok: 'Serving.',
    degraded:
      'Up, but a dependency is away: without the database, requests that need it answer 503 with Retry-After; without Redis, rate limits count per process and events reach other processes late.',
  },
});
const DatabaseHealthEnum = enumFromList('DatabaseHealth', DATABASE_HEALTH, {
  description: 'Whether the database answered (pinged every 2 seconds).',
});
const RedisHealthEnum = enumFromList('RedisHealth', REDIS_HEALTH, {
  description: "Whether this process's Redis connections are up.",
  valueDescriptions: {
    ok: 'Connected.',
    unreachable: 'Lost; reconnecting every second.',
    not_configured: 'This deployment runs without Redis (REDIS_URL unset).',
  },
});

interface ServiceStatus {
  status: (typeof SERVICE_HEALTH)[number];
  version: string;
  startedAt: Date;
  uptimeSeconds: number;
  database: (typeof DATABASE_HEALTH)[number];
  redis: (typeof REDIS_HEALTH)[number];
  time: Date;
}

const ServiceStatusRef = builder.objectRef<ServiceStatus>('ServiceStatus').implement({
  description: 'Liveness of the service and of what it depends on.',
  fields: (t) => ({
    status: t.expose('status', { type: ServiceHealthEnum }),
    version: t.exposeString('version'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    uptimeSeconds: t.exposeInt('uptimeSeconds'),
    database: t.expose('database', { type: DatabaseHealthEnum }),
    redis: t.expose('redis', { type: RedisHealthEnum }),
    time: t.expose('time', { type: 'DateTime' }),
  }),
});

builder.queryField('serviceStatus', (t) =>
  t.field({
    type: ServiceStatusRef,
    description: 'Liveness of the service and its database; public.',
    authScopes: PUBLIC,
    resolve: async (_root, _args, { app }): Promise<ServiceStatus> => {
      const database = await app.health.database();
      const redis = app.health.redis();
      const now = new Date();
      return {
        status: database === 'ok' && redis !== 'unreachable' ? 'ok' : 'degraded',
        version: app.version,
        startedAt: app.startedAt,
        uptimeSeconds: Math.floor((now.getTime() - app.startedAt.getTime()) / 1000),
        database,
        redis,
        time: now,
      };
    },
  }),
);
