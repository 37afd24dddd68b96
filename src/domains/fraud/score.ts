import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { readAccountFacts } from './facts.ts';
import { type FlagCategory, type FlagSeverity, FRAUD_RULES, MAX_SCORE } from './rules.ts';

export const SCORE_SEVERITIES = ['none', 'low', 'medium', 'high', 'critical'] as const;
export type ScoreSeverity = (typeof SCORE_SEVERITIES)[number];

export interface FraudFlag {
  code: string;
  label: string;
  category: FlagCategory;
  severity: FlagSeverity;
  triggered: boolean;
  points: number;
}

export interface FraudScore {
  email: string;
  score: number;
  maxScore: number;
  severity: ScoreSeverity;
  computedAt: Date | null;
  flags: FraudFlag[];
}

/** none at 0; then by share of the maximum: low < 25%, medium < 50%, high < 75%, critical from 75%. */
export function severityOf(score: number): ScoreSeverity {
  if (score <= 0) return 'none';
  const share = score / MAX_SCORE;
  if (share < 0.25) return 'low';
  if (share < 0.5) return 'medium';
  if (share < 0.75) return 'high';
  return 'critical';
}

/**
 * The fraud-risk score of the account with this email (any case), computed now from the facts the
 * platform records. Every rule is listed, triggered or not; nothing in the answer names another
 * account, an address or how a fact was measured. No account: 404.
 */
export async function scoreEmail(em: EntityManager, email: string, now: Date): Promise<FraudScore> {
  // Emails are stored normalised (trimmed, lower case), so the unique index finds any spelling.
  const [account] = await em.execute<{ id: string; email: string }[]>(
    'select id, email from accounts where email = ?',
    [email.trim().toLowerCase()],
  );
  if (!account) throw notFound('No account has this email address.', 'account_not_found');
  const facts = await readAccountFacts(em, account.id, now);
  const flags = FRAUD_RULES.map((rule): FraudFlag => {
    const triggered = rule.fires(facts);
    return {
      code: rule.code,
      label: rule.label,
      category: rule.category,
      severity: rule.severity,
      triggered,
      points: triggered ? rule.points : 0,
    };
  });
  const score = Math.min(
    MAX_SCORE,
    flags.reduce((sum, flag) => sum + flag.points, 0),
  );
  return {
    email: account.email,
    score,
    maxScore: MAX_SCORE,
    severity: severityOf(score),
    computedAt: now,
    flags,
  };
}
