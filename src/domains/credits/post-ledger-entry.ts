import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runSql } from '../../platform/db/direct-sql.ts';
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
// flight claims nothing. Parameters: $1 amount (signed), $2 account id, $3 in-flight timeout (seconds).
const MOVE = `
moved as (
  update accounts set credit_balance = credit_balance + $1, credits_updated_at = now()
   where id = $2 and credit_balance + $1 >= 0
  returning credit_balance
), claimed as (
  update auto_reload_settings s set in_flight_since = now()
    from moved
   where $1 < 0 and s.account_id = $2 and s.enabled and moved.credit_balance <= s.threshold_credits
     and (s.in_flight_since is null or s.in_flight_since < now() - make_interval(secs => $3))
  returning s.account_id
)`;

/** The move alone; its ledger row is the caller's (postLedgerEntry's flush). */
const MOVE_CREDITS_SQL = `with ${MOVE}
select moved.credit_balance, exists (select 1 from claimed) as reload from moved`;

/**
 * The move and its ledger row in one statement: the row is written only when the balance moved, and
 * its balance_after is the moved balance, read in the same statement. Parameters: the move's, then
 * $4 the row's id, $5 type, $6 ref, $7 created_at.
 */
export const MOVE_AND_RECORD_SQL = `with ${MOVE}, recorded as (
  insert into credit_transactions (id, account_id, type, amount, balance_after, ref, created_at)
  select $4::uuid, $2::uuid, $5::text, $1::int, moved.credit_balance, $6::text, $7::timestamptz from moved
)
select moved.credit_balance, exists (select 1 from claimed) as reload from moved`;

interface Moved {
  credit_balance: number;
  reload: boolean;
}

/** A move that found no balance to take from: the account is missing, or the balance is short. */
async function refused(em: EntityManager, entry: LedgerEntryInput): Promise<never> {
  const account = await em.findOne(Account, { id: entry.accountId }, { disableIdentityMap: true });
  if (!account) throw notFound('No such account.', 'account_not_found');
  throw new InsufficientCreditsError(-entry.amount - account.creditBalance);
}

/**
 * Moves credits. Must run inside a transaction (the caller's, so a debit commits with what it pays for):
 * the balance changes in one atomic UPDATE (no read-modify-write race) that holds the account's row
 * until the commit, and the ledger row records the balance after the move. A debit that leaves the
 * balance at or below the account's auto-reload threshold enqueues the reload in the same transaction.
 * The ledger row is left to the caller's next flush.
 */
async function moveCredits(em: EntityManager, entry: LedgerEntryInput): Promise<CreditTransaction> {
  if (!em.isInTransaction()) throw new Error('postLedgerEntry must run inside a database transaction');
  const { accountId, amount } = entry;
  const [moved] = await runSql<Moved>(em, MOVE_CREDITS_SQL, [amount, accountId, IN_FLIGHT_TIMEOUT_SECONDS]);
  if (!moved) return refused(em, entry);
  if (moved.reload) await enqueueAutoReload(em, accountId);
  return em.create(CreditTransaction, {
    account: em.getReference(Account, accountId),
    type: entry.type,
    amount,
    balanceAfter: moved.credit_balance,
    ref: entry.ref ?? null,
  });
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

/**
 * Moves credits and writes the ledger row in the same statement (`MOVE_AND_RECORD_SQL`), with the same
 * guards, lock and reload claim as postLedgerEntry; returns the balance after the move. For a caller
 * holding the account's row to its commit (a submission debits last): one round trip under that lock
 * instead of two, and nothing left to a flush. Must run inside a transaction.
 */
export async function moveAndRecordCredits(
  em: EntityManager,
  entry: LedgerEntryInput,
  createdAt: Date = new Date(),
): Promise<number> {
  if (!em.isInTransaction()) throw new Error('moveAndRecordCredits must run inside a database transaction');
  const { accountId, amount } = entry;
  const [moved] = await runSql<Moved>(em, MOVE_AND_RECORD_SQL, [
    amount,
    accountId,
    IN_FLIGHT_TIMEOUT_SECONDS,
    randomUUID(),
    entry.type,
    entry.ref ?? null,
    createdAt,
  ]);
  if (!moved) return refused(em, entry);
  if (moved.reload) await enqueueAutoReload(em, accountId);
  return moved.credit_balance;
}
