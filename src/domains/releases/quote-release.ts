import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import { getAccount } from '../accounts/index.ts';
import type { AudioDeps } from '../audio/index.ts';
import { balanceFor, chargesFor, costOf, purchaseFor, RATES } from './billing.ts';
import { ruleContextFor } from './rule-context.ts';
import { evaluateRules, normaliseSubmission } from './rules/engine/index.ts';
import type { RuleIssue } from './rules/engine/types.ts';

export interface QuoteInput {
  tracks: unknown;
  release?: unknown;
  tokenOffset?: boolean;
}

/**
 * Prices a release against the balance. Creates and charges nothing. `blockers` are the problems
 * credits cannot fix: rule errors of what was sent (release-level rules only when a release was sent).
 */
export async function quoteRelease(
  em: EntityManager,
  accountId: string,
  input: QuoteInput,
  audio?: Omit<AudioDeps, 'em'>,
) {
  if (!Array.isArray(input.tracks)) {
    throw invalidRequest('tracks must be an array of tracks.', [
      { path: 'tracks', message: 'required array' },
    ]);
  }
  const submission = normaliseSubmission({ release: input.release ?? {}, tracks: input.tracks });
  const ctx = ruleContextFor(em, accountId, { audio });
  const charges = await chargesFor(submission.tracks, input.tokenOffset === true, ctx);
  const issues = await evaluateRules(submission, ctx);
  const blockers = issues.filter(
    (i) => i.severity === 'error' && (input.release !== undefined || i.path.startsWith('tracks')),
  );
  const warnings = issues.filter(
    (i) => i.severity === 'warning' && (input.release !== undefined || i.path.startsWith('tracks')),
  );
  const account = await getAccount(em, accountId);
  const balance = balanceFor(account.creditBalance, charges.totalCredits);
  const lines = charges.tracks;
  return {
    currency: 'USD',
    cost: costOf(charges),
    tracks: lines,
    summary: {
      trackCount: lines.length,
      billableTracks: lines.filter((t) => t.billable).length,
      humanTracks: lines.filter((t) => t.billable && !t.ai).length,
      aiTracks: lines.filter((t) => t.billable && t.ai).length,
      tracksMissingAudio: lines.filter((t) => !t.billable).length,
    },
    balance,
    purchase: purchaseFor(balance.shortfallCredits),
    submittable: balance.covered && blockers.length === 0 && lines.length > 0,
    blockers: blockers as RuleIssue[],
    warnings: warnings as RuleIssue[],
    rates: RATES,
  };
}

export type Quote = Awaited<ReturnType<typeof quoteRelease>>;
