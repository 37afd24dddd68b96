import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import type { CreditTransaction } from './credit-transaction.entity.ts';
import { postLedgerEntry } from './post-ledger-entry.ts';

export interface GrantCreditsInput {
  accountId: string;
  credits: number;
  ref?: string | null;
  type?: 'grant' | 'purchase' | 'refund' | 'auto_reload';
}

export async function grantCredits(em: EntityManager, input: GrantCreditsInput): Promise<CreditTransaction> {
  if (!Number.isInteger(input.credits) || input.credits <= 0) {
    throw invalidRequest('credits must be a positive integer.', [
      { path: 'credits', message: 'must be > 0' },
    ]);
  }
  return em.transactional((tem) =>
    postLedgerEntry(tem, {
      accountId: input.accountId,
      type: input.type ?? 'grant',
      amount: input.credits,
      ref: input.ref ?? null,
    }),
  );
}
