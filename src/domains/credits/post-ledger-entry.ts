import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../platform/errors.ts';
import { Account } from '../accounts/account.entity.ts';
import { triggerAutoReloadIfDue } from './auto-reload-trigger.ts';
import { CreditTransaction, type CreditTransactionType } from './credit-transaction.entity.ts';

export interface LedgerEntryInput {
  accountId: string;
  type: CreditTransactionType;
  /** Signed: positive adds credits, negative takes them. */
  amount: number;
  ref?: string | null;
}

export class InsufficientCreditsError extends AppError {
  readonly shortfall: number;

  constructor(shortfall: number) {
    super('conflict_error', 'insufficient_credits', `Not enough credits: ${shortfall} more needed.`);
    this.shortfall = shortfall;
  }
}

/**
 * Moves credits. Must run inside a transaction (the caller's, so a debit commits with what it pays for):
 * the balance changes in one atomic UPDATE (no read-modify-write race) that refuses to go below zero,
 * and the ledger row records the balance after the move. A debit that leaves the balance at or below the
 * account's auto-reload threshold enqueues the reload in the same transaction.
 */
export async function postLedgerEntry(
  em: EntityManager,
  entry: LedgerEntryInput,
): Promise<CreditTransaction> {
  if (!em.isInTransaction()) throw new Error('postLedgerEntry must run inside a database transaction');
  // The guard in WHERE refuses an overdraft without aborting the transaction; the CHECK constraint
  // on accounts.credit_balance stays as the last line of defence.
  const rows = await em.execute<{ credit_balance: number }[]>(
    `update accounts set credit_balance = credit_balance + ?, credits_updated_at = now()
      where id = ? and credit_balance + ? >= 0 returning credit_balance`,
    [entry.amount, entry.accountId, entry.amount],
  );
  const balanceAfter = rows[0]?.credit_balance;
  if (balanceAfter === undefined) {
    const account = await em.findOne(Account, { id: entry.accountId }, { disableIdentityMap: true });
    if (!account) throw notFound('No such account.', 'account_not_found');
    throw new InsufficientCreditsError(-entry.amount - account.creditBalance);
  }
  const transaction = em.create(CreditTransaction, {
    account: em.getReference(Account, entry.accountId),
    type: entry.type,
    amount: entry.amount,
    balanceAfter,
    ref: entry.ref ?? null,
  });
  await em.flush();
  if (entry.amount < 0) await triggerAutoReloadIfDue(em, entry.accountId, balanceAfter);
  return transaction;
}
