import { PgBoss } from 'pg-boss';
import { JOBS_SCHEMA, type QueueDefinition } from './queue.ts';

/**
 * Installs or migrates pg-boss's schema and creates the app's queues (updating the options a queue may
 * change), so every process can send as soon as its database is open: sending needs no started
 * instance (see send.ts). Idempotent; tens of milliseconds on an installed database.
 */
export async function installJobs(url: string, queues: readonly QueueDefinition[]): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema: JOBS_SCHEMA,
    max: 2,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  // start() and the queue calls reject on failure; only this short-lived instance's own timers report
  // here, and nothing depends on them.
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const { name, ...options } of queues) {
      await boss.createQueue(name, options);
      const { policy, partition, ...changeable } = options;
      if (Object.keys(changeable).length > 0) await boss.updateQueue(name, changeable);
    }
  } finally {
    await boss.stop({ graceful: false });
  }
}
