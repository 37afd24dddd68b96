import type { LimitRule } from '../../platform/rate-limit/index.ts';

/** What a limit counts. */
export const RATE_LIMIT_ACTIONS = [
  'cover_art_generation',
  'agent_submission',
  'fraud_score',
  'failed_sign_in',
  'sign_up',
  'email_code_request',
  'email_code_claim',
  'partner_call',
  'sandbox_event',
] as const;
export type RateLimitAction = (typeof RATE_LIMIT_ACTIONS)[number];

/** Whose counter a limit is: the account's, its email address's, or the caller's IP address's. */
export const RATE_LIMIT_KEYS = ['account', 'email_address', 'ip_address'] as const;
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];

/**
 * One limit that applies to a caller: its rule, the counter it keeps for this caller, and what it is
 * about. `Action` is wider for limits kept outside the domains (a transport's own).
 */
export interface ApplicableLimit<Action extends string = RateLimitAction> {
  rule: LimitRule;
  subject: string;
  action: Action;
  keyedBy: RateLimitKey;
  /** What counts against it, in a sentence. */
  appliesTo: string;
}
