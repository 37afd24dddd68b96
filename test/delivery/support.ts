import type { MikroORM } from '@mikro-orm/postgresql';
import { sandboxOnly } from '../../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { ReleaseJob } from '../../src/domains/delivery/release-job.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import type { ManualClock } from '../../src/platform/clock.ts';
import { OutboxEvent } from '../../src/platform/events/outbox-event.entity.ts';

export const STEP = 60;

/** Every store on the sandbox, one step every STEP seconds. */
export const SANDBOX = sandboxOnly({ stepSeconds: STEP });

// biome-ignore lint/suspicious/noExplicitAny: assertions read event payloads loosely
type Payload = Record<string, any>;

/** The events of one release, oldest first. */
export async function eventsOf(orm: MikroORM, releaseId: string, after = 0) {
  const rows = await orm.em
    .fork()
    .find(OutboxEvent, { releaseId, id: { $gt: after } }, { orderBy: { id: 'asc' } });
  return rows.map((row) => ({ id: row.id, type: row.type, payload: row.payload as Payload }));
}

export async function lastEventId(orm: MikroORM, releaseId: string): Promise<number> {
  return (await eventsOf(orm, releaseId)).at(-1)?.id ?? 0;
}

/** Moves the clock one step and runs the step function once. */
export async function tick(orm: MikroORM, clock: ManualClock, seconds = STEP) {
  clock.advance(seconds);
  return advanceDue(orm.em.fork(), clock, SANDBOX);
}

export async function deliveriesOf(orm: MikroORM, releaseId: string) {
  return orm.em.fork().find(Delivery, { release: releaseId }, { orderBy: { storeId: 'asc' } });
}

export async function statusesOf(orm: MikroORM, releaseId: string) {
  return Object.fromEntries((await deliveriesOf(orm, releaseId)).map((d) => [d.storeId, d.status]));
}

export async function releaseOf(orm: MikroORM, releaseId: string) {
  return orm.em.fork().findOneOrFail(Release, { id: releaseId });
}

export async function jobOf(orm: MikroORM, releaseId: string) {
  return orm.em.fork().findOneOrFail(ReleaseJob, { release: releaseId });
}

/** `storeStatuses` entries without the store names, for compact assertions. */
export function brief(storeStatuses: { storeId: number; statusText: string; urlInStore?: string }[]) {
  return storeStatuses.map((s) => [s.storeId, s.statusText, s.urlInStore ?? null]);
}

/** When the earliest scheduled store step is due (null = nothing scheduled). */
export async function nextDueAt(orm: MikroORM): Promise<Date | null> {
  const [row] = await orm.em
    .fork()
    .execute<{ due: Date | string | null }[]>('select min(next_step_at) as due from deliveries');
  return row?.due ? new Date(row.due) : null;
}
