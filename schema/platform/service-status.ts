import { builder, PUBLIC } from '../builder.ts';

interface ServiceStatus {
  status: 'ok' | 'degraded';
  version: string;
  startedAt: Date;
  uptimeSeconds: number;
  database: 'ok' | 'unreachable';
  time: Date;
}

const ServiceStatusRef = builder.objectRef<ServiceStatus>('ServiceStatus').implement({
  description: 'Liveness of the service and of its database.',
  fields: (t) => ({
    status: t.exposeString('status'),
    version: t.exposeString('version'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    uptimeSeconds: t.exposeInt('uptimeSeconds'),
    database: t.exposeString('database'),
    time: t.expose('time', { type: 'DateTime' }),
  }),
});

builder.queryField('serviceStatus', (t) =>
  t.field({
    type: ServiceStatusRef,
    description: 'Liveness of the service and its database; public.',
    authScopes: PUBLIC,
    resolve: async (_root, _args, { app, em }): Promise<ServiceStatus> => {
      const database = await em
        .execute('select 1')
        .then(() => 'ok' as const)
        .catch(() => 'unreachable' as const);
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
