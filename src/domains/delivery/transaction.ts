import type { EntityManager } from '@mikro-orm/postgresql';

/** Runs in the caller's transaction when there is one (so its state change and ours commit together). */
export async function inTransaction<T>(em: EntityManager, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return em.isInTransaction() ? fn(em) : em.transactional(fn);
}

/** The soonest step of these stores (null when none is scheduled). */
export function earliestStep(deliveries: readonly { nextStepAt?: Date | null }[]): Date | null {
  let min: Date | null = null;
  for (const { nextStepAt } of deliveries) if (nextStepAt && (!min || nextStepAt < min)) min = nextStepAt;
  return min;
}

export function secondsAfter(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
