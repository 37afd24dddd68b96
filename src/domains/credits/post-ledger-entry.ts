import { CheckConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../platform/errors.ts';
import { Account } from '../accounts/account.entity.ts';
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
 * the balance changes in one atomic UPDATE (no read-modify-write race), the CHECK constraint keeps it
 * from going negative, and the ledger row records the balance after the move.
 */
export async function postLedgerEntry(
  em: EntityManager,
  entry: LedgerEntryInput,
): Promise<CreditTransaction> {
  if (!em.isInTransaction()) throw new Error('postLedgerEntry must run inside a database transaction');
  let rows: { credit_balance: number }[];
  try {
    rows = await em.execute<{ credit_balance: number }[]>(
      'update accounts set credit_balance = credit_balance + ?, credits_updated_at = now() where id = ? returning credit_balance',
      [entry.amount, entry.accountId],
    );
  } catch (error) {
    if (error instanceof CheckConstraintViolationException) {
      const account = await em.findOne(Account, { id: entry.accountId }, { disableIdentityMap: true });
      throw new InsufficientCreditsError(-entry.amount - (account?.creditBalance ?? 0));
    }
    throw error;
  }
  const balanceAfter = rows[0]?.credit_balance;
  if (balanceAfter === undefined) throw notFound('No such account.', 'account_not_found');
  const transaction = em.create(CreditTransaction, {
    account: em.getReference(Account, entry.accountId),
    type: entry.type,
    amount: entry.amount,
    balanceAfter,
    ref: entry.ref ?? null,
  });
  await em.flush();
  return transaction;
}
