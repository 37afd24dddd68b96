export { type Jobs, startJobs } from './boss.ts';
export { installJobs } from './install.ts';
export type { QueueDefinition } from './queue.ts';
export { insertInTransaction, sendInTransaction } from './send.ts';
