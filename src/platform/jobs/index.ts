export { type Jobs, startJobs } from './boss.ts';
export { installJobs } from './install.ts';
export { JOBS_SCHEMA, type QueueDefinition } from './queue.ts';
export { insertInTransaction, sendInTransaction } from './send.ts';
