import type { EntityManager } from '@mikro-orm/postgresql';

/** Runs in the caller's transaction when there is one (so its state change and ours commit together). */
export async function inTransaction<T>(em: EntityManager, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return em.isInTransaction() ? fn(em) : em.transactional(fn);
}

export function secondsAfter(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
