import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, type Page, type PageArgs } from '../../platform/db/keyset.ts';
import { getAccount } from '../accounts/index.ts';
import { CreditTransaction } from './credit-transaction.entity.ts';

export const MAX_TRANSACTION_LIMIT = 100;
export const DEFAULT_TRANSACTION_LIMIT = 10;

export interface CreditsSummary {
  balance: number;
  updatedAt: Date;
  transactions: CreditTransaction[];
  aggregates: { usedTotal: number; purchasedTotal: number };
}

export async function readCredits(
  em: EntityManager,
  accountId: string,
  transactionLimit: number,
): Promise<CreditsSummary> {
  const account = await getAccount(em, accountId);
  const transactions =
    transactionLimit === 0
      ? []
      : await em.find(
          CreditTransaction,
          { account: accountId },
          { orderBy: { seq: 'desc' }, limit: transactionLimit },
        );
  const [totals] = await em.execute<{ used: string | null; purchased: string | null }[]>(
    `select coalesce(sum(-amount) filter (where amount < 0), 0) as used,
            coalesce(sum(amount) filter (where type in ('purchase', 'auto_reload')), 0) as purchased
       from credit_transactions where account_id = ?`,
    [accountId],
  );
  return {
    balance: account.creditBalance,
    updatedAt: account.creditsUpdatedAt,
    transactions,
    aggregates: { usedTotal: Number(totals?.used ?? 0), purchasedTotal: Number(totals?.purchased ?? 0) },
  };
}

/** The account's ledger as keyset pages, newest first. */
export function pageOfTransactions(
  em: EntityManager,
  accountId: string,
  args: PageArgs,
): Promise<Page<CreditTransaction>> {
  return keysetPage(em, CreditTransaction, { account: accountId }, args);
}
