import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity.ts';

export const OUTBOX_CHANNEL = 'outbox_events';

export interface NewEvent {
  accountId: string;
  releaseId?: string | null;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * Records an event inside the caller's transaction (so it exists exactly when the state change does)
 * and wakes the relay when the transaction commits (NOTIFY is delivered at commit).
 */
export async function appendEvent(em: EntityManager, event: NewEvent): Promise<OutboxEvent> {
  if (!em.isInTransaction())
    throw new Error('appendEvent must run inside the transaction of the state change');
  const row = em.create(OutboxEvent, {
    accountId: event.accountId,
    releaseId: event.releaseId ?? null,
    type: event.type,
    payload: event.payload,
  });
  await em.flush();
  await em.execute(`select pg_notify('${OUTBOX_CHANNEL}', '')`);
  return row;
}
