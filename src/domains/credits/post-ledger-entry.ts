import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../platform/errors.ts';
import { Account } from '../accounts/index.ts';
import { enqueueAutoReload, IN_FLIGHT_TIMEOUT_SECONDS } from './auto-reload-trigger.ts';
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

// One statement moves the balance (the guard in WHERE refuses an overdraft without aborting the
// transaction; the CHECK constraint on accounts.credit_balance stays as the last line of defence) and,
// for a debit that leaves it at or below the account's auto-reload threshold, claims the account's one
// reload slot (`in_flight_since`, see auto-reload-trigger.ts): a second debit while a reload is in
// flight claims nothing. Parameters: amount, account id, amount, amount, account id, in-flight timeout.
export const MOVE_CREDITS_SQL = `
with moved as (
  update accounts set credit_balance = credit_balance + ?, credits_updated_at = now()
   where id = ? and credit_balance + ? >= 0
  returning credit_balance
), claimed as (
  update auto_reload_settings s set in_flight_since = now()
    from moved
   where ? < 0 and s.account_id = ? and s.enabled and moved.credit_balance <= s.threshold_credits
     and (s.in_flight_since is null or s.in_flight_since < now() - make_interval(secs => ?))
  returning s.account_id
)
select moved.credit_balance, exists (select 1 from claimed) as reload from moved`;

/**
 * Moves credits. Must run inside a transaction (the caller's, so a debit commits with what it pays for):
 * the balance changes in one atomic UPDATE (no read-modify-write race) that holds the account's row
 * until the commit, and the ledger row records the balance after the move. A debit that leaves the
 * balance at or below the account's auto-reload threshold enqueues the reload in the same transaction.
 * The ledger row is left to the caller's next flush, or with `persist: false` to the caller to insert (a
 * caller whose unit of work is large saves a flush walking all of it). Take the balance lock as late as
 * the work allows: a submission writes everything else first and debits just before its commit.
 */
export async function moveCredits(
  em: EntityManager,
  entry: LedgerEntryInput,
  options: { persist?: boolean } = {},
): Promise<CreditTransaction> {
  if (!em.isInTransaction()) throw new Error('postLedgerEntry must run inside a database transaction');
  const { accountId, amount } = entry;
  const rows = await em.execute<{ credit_balance: number; reload: boolean }[]>(MOVE_CREDITS_SQL, [
    amount,
    accountId,
    amount,
    amount,
    accountId,
    IN_FLIGHT_TIMEOUT_SECONDS,
  ]);
  const [moved] = rows;
  if (!moved) {
    const account = await em.findOne(Account, { id: accountId }, { disableIdentityMap: true });
    if (!account) throw notFound('No such account.', 'account_not_found');
    throw new InsufficientCreditsError(-amount - account.creditBalance);
  }
  if (moved.reload) await enqueueAutoReload(em, accountId);
  return em.create(
    CreditTransaction,
    {
      account: em.getReference(Account, accountId),
      type: entry.type,
      amount,
      balanceAfter: moved.credit_balance,
      ref: entry.ref ?? null,
    },
    { persist: options.persist ?? true },
  );
}

/** Moves credits (see moveCredits) and writes the ledger row at once. */
export async function postLedgerEntry(
  em: EntityManager,
  entry: LedgerEntryInput,
): Promise<CreditTransaction> {
  const transaction = await moveCredits(em, entry);
  await em.flush();
  return transaction;
}
