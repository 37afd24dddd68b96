import type { Queue } from 'pg-boss';

/** pg-boss keeps its tables in a schema of its own, beside the app's (our migrations never touch it). */
export const JOBS_SCHEMA = 'pgboss';

/** A queue the app declares: created (or brought up to date) with the database, before anything sends. */
export type QueueDefinition = Queue;
