import { builder, PUBLIC } from '../builder.ts';
import { enumFromList } from '../enums.ts';

const SERVICE_HEALTH = ['ok', 'degraded'] as const;
const DATABASE_HEALTH = ['ok', 'unreachable'] as const;

const ServiceHealthEnum = enumFromList('ServiceHealth', SERVICE_HEALTH, {
  description: 'Whether the service can do its work.',
  valueDescriptions: { ok: 'Serving.', degraded: 'Up, but its database cannot be reached.' },
});
const DatabaseHealthEnum = enumFromList('DatabaseHealth', DATABASE_HEALTH, {
  description: 'Whether the database answered.',
});

interface ServiceStatus {
  status: (typeof SERVICE_HEALTH)[number];
  version: string;
  startedAt: Date;
  uptimeSeconds: number;
  database: (typeof DATABASE_HEALTH)[number];
  time: Date;
}

const ServiceStatusRef = builder.objectRef<ServiceStatus>('ServiceStatus').implement({
  description: 'Liveness of the service and of its database.',
  fields: (t) => ({
    status: t.expose('status', { type: ServiceHealthEnum }),
    version: t.exposeString('version'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    uptimeSeconds: t.exposeInt('uptimeSeconds'),
    database: t.expose('database', { type: DatabaseHealthEnum }),
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
      const now = new Date();
      return {
        status: database === 'ok' ? 'ok' : 'degraded',
        version: app.version,
        startedAt: app.startedAt,
        uptimeSeconds: Math.floor((now.getTime() - app.startedAt.getTime()) / 1000),
        database,
        time: now,
      };
    },
  }),
);
