import { compileRoutes } from '../facades/rest/router.ts';
import { restRoutes } from '../facades/rest/routes/index.ts';
import { authenticate } from '../schema/context.ts';
import { runOperation } from '../schema/execute.ts';
import { buildAppServices } from '../schema/services.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { benchApp } from './support/servers.ts';

const bench = await benchApp('tributary_prof_op');
try {
  const services = await buildAppServices(
    loadConfig({ DATABASE_URL: bench.databaseUrl, DATA_DIR: bench.dataDir }),
    bench.orm,
    createLogger('silent'),
    'bench',
  );
  const id = process.env.OP ?? 'getServiceStatus';
  const route = compileRoutes(restRoutes).find((e) => e.route.operationId === id)!;
  const call = async () => {
    const principal = await authenticate(services, bench.account.token);
    const r = await runOperation(services, route.operation, { principal, channel: 'rest', variables: {} });
    if (r.errors.length) throw r.errors[0];
    JSON.stringify(route.route.select ? r.data?.[route.route.select] : r.data);
  };
  for (let i = 0; i < 20000; i++) await call();
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < 100000; i++) await call();
  console.log(id, 'per call us', ((performance.now() - t0) * 1000) / 100000);
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync('/tmp/op.cpuprofile', JSON.stringify(profile));
} finally {
  await bench.close();
}
