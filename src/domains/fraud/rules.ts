import MailChecker from 'mailchecker';
import type { AccountFacts } from './facts.ts';

export const FLAG_CATEGORIES = [
  'rights',
  'account_integrity',
  'content',
  'distribution',
  'streaming',
  'behavior',
  'abuse',
] as const;
export type FlagCategory = (typeof FLAG_CATEGORIES)[number];

export const FLAG_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type FlagSeverity = (typeof FLAG_SEVERITIES)[number];

export interface FraudRule {
  /** Stable: clients key on it. */
  code: string;
  label: string;
  category: FlagCategory;
  severity: FlagSeverity;
  points: number;
  fires(facts: AccountFacts): boolean;
}

/** Thresholds of the rules, named so the docs and tests speak of the same numbers. */
export const THRESHOLDS = {
  newAccountDays: 7,
  burstReleases: 5,
  takedownRatio: 0.3,
  takedownMinReleases: 3,
  provenanceCohort: 10,
  aiShare: 0.8,
  aiMinTracks: 5,
  streamingMinStreams: 1_000,
  storeShare: 0.9,
  dayShare: 0.5,
  /** Failed sign-ins within the last 30 days (any lock fires the rule too). */
  failedSignIns: 10,
} as const;

const disposable = MailChecker.blacklist();

/** The rules, in the order flags are listed. The points sum to MAX_SCORE. */
export const FRAUD_RULES: readonly FraudRule[] = [
  {
    code: 'disposable_email_domain',
    label: 'The email address is at a disposable (throwaway) mail provider',
    category: 'account_integrity',
    severity: 'medium',
    points: 15,
    fires: (f) => disposable.has(f.emailDomain),
  },
  {
    code: 'new_account',
    label: `The account is less than ${THRESHOLDS.newAccountDays} days old`,
    category: 'account_integrity',
    severity: 'low',
    points: 5,
    fires: (f) => f.accountAgeDays < THRESHOLDS.newAccountDays,
  },
  {
    code: 'release_burst',
    label: `${THRESHOLDS.burstReleases} or more releases submitted within 24 hours`,
    category: 'distribution',
    severity: 'medium',
    points: 15,
    fires: (f) => f.releasesIn24Hours >= THRESHOLDS.burstReleases,
  },
  {
    code: 'high_takedown_ratio',
    label: `Takedowns on ${THRESHOLDS.takedownRatio * 100}% or more of the submitted releases`,
    category: 'distribution',
    severity: 'high',
    points: 15,
    fires: (f) =>
      f.submittedReleases >= THRESHOLDS.takedownMinReleases &&
      f.releasesTakenDown / f.submittedReleases >= THRESHOLDS.takedownRatio,
  },
  {
    code: 'provenance_cluster',
    label: 'Many accounts created from the same partner or provenance within a short time',
    category: 'abuse',
    severity: 'medium',
    points: 10,
    fires: (f) => f.provenanceCohort >= THRESHOLDS.provenanceCohort,
  },
  {
    code: 'registry_match_conflict',
    label: 'Uploaded audio matches recordings registered to others',
    category: 'rights',
    severity: 'critical',
    points: 20,
    fires: (f) => f.registryMatches > 0,
  },
  {
    code: 'high_ai_share',
    label: `${THRESHOLDS.aiShare * 100}% or more of the submitted tracks are AI-generated`,
    category: 'content',
    severity: 'low',
    points: 5,
    fires: (f) => f.tracks >= THRESHOLDS.aiMinTracks && f.aiTracks / f.tracks >= THRESHOLDS.aiShare,
  },
  {
    code: 'streaming_store_concentration',
    label: `One store accounts for ${THRESHOLDS.storeShare * 100}% or more of recent streams`,
    category: 'streaming',
    severity: 'medium',
    points: 10,
    fires: (f) =>
      f.recentStreams >= THRESHOLDS.streamingMinStreams && f.topStoreShare >= THRESHOLDS.storeShare,
  },
  {
    code: 'streaming_day_spike',
    label: `One day accounts for ${THRESHOLDS.dayShare * 100}% or more of recent streams`,
    category: 'streaming',
    severity: 'medium',
    points: 5,
    fires: (f) => f.recentStreams >= THRESHOLDS.streamingMinStreams && f.topDayShare >= THRESHOLDS.dayShare,
  },
  {
    code: 'failed_sign_ins',
    label: `${THRESHOLDS.failedSignIns} or more failed sign-ins, or an account lock, in the last 30 days`,
    category: 'account_integrity',
    severity: 'medium',
    points: 10,
    fires: (f) => f.failedSignIns >= THRESHOLDS.failedSignIns || f.signInLocks > 0,
  },
];

export const MAX_SCORE = FRAUD_RULES.reduce((sum, rule) => sum + rule.points, 0);
