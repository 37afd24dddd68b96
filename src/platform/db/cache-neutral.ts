import type { EntityManager, Transaction } from '@mikro-orm/postgresql';

const neutral = new WeakSet<Transaction>();

/**
 * Marks the transaction `tem` runs in as writing nothing a cached read reads (webhook bookkeeping: the
 * dispatcher's claims and outcomes, polled several times a second). Committing it keeps the read
 * caches, which every other commit clears. Mark only transactions whose every statement is known.
 */
export function markCacheNeutral(tem: EntityManager): void {
  const transaction = tem.getTransactionContext<Transaction>();
  if (transaction) neutral.add(transaction);
}

export function isCacheNeutral(transaction: Transaction | undefined): boolean {
  return transaction !== undefined && neutral.has(transaction);
}
