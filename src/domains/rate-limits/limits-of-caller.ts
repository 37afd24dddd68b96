import type { EntityManager } from '@mikro-orm/postgresql';
import {
  getAccount,
  SIGN_IN_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_IP,
  SIGN_UPS_PER_IP,
} from '../accounts/index.ts';
import { coverArtRule } from '../cover-art/index.ts';
import { SANDBOX_EVENT_RULE } from '../delivery/adapters/index.ts';
import { type FraudLimits, fraudRules } from '../fraud/index.ts';
import { PARTNER_CALLS_PER_IP } from '../partners/index.ts';
import { agentSubmitRule } from '../releases/index.ts';
import {
  CHALLENGES_PER_EMAIL,
  CHALLENGES_PER_IP,
  CLAIMS_PER_EMAIL,
  CLAIMS_PER_IP,
} from '../verified-email/index.ts';
import type { ApplicableLimit } from './applicable-limit.ts';

export interface Caller {
  accountId: string;
  /** The address the request came from, as the service sees it (the per-address limits' key). */
  ip: string;
  /** The fraud-score budgets, for a caller allowed to ask for scores; null otherwise. */
  fraud: FraudLimits | null;
}

/**
 * Every limit that applies to a signed-in caller, each with the counter it keeps for them: the
 * account's own, those of its email address, and those of the caller's IP address that the sign-in,
 * sign-up, verified-email and partner flows spend before anyone is signed in. Left out: the partner
 * limit per client_id (a partner's, not an account's).
 */
export async function limitsOfCaller(
  em: EntityManager,
  caller: Caller,
  now: Date,
): Promise<ApplicableLimit[]> {
  const account = await getAccount(em, caller.accountId);
  const { accountId, ip } = caller;
  // Stored addresses are already in the form these flows key them by (trimmed, lower case).
  const email = account.email;
  const limits: ApplicableLimit[] = [
    {
      rule: coverArtRule(account.isInsider),
      subject: accountId,
      action: 'cover_art_generation',
      keyedBy: 'account',
      appliesTo: 'Cover art generations of the account, whatever the surface.',
    },
    {
      rule: agentSubmitRule(account.isInsider),
      subject: accountId,
      action: 'agent_submission',
      keyedBy: 'account',
      appliesTo: 'Submissions of the account through the agent HTTP submit endpoint.',
    },
    {
      rule: SANDBOX_EVENT_RULE,
      subject: accountId,
      action: 'sandbox_event',
      keyedBy: 'account',
      appliesTo: 'Test events the account asks the sandbox for, on every surface.',
    },
  ];
  if (caller.fraud) {
    const { perMinute, perDay } = fraudRules(caller.fraud, accountId, now);
    limits.push(
      {
        ...perMinute,
        action: 'fraud_score',
        keyedBy: 'account',
        appliesTo: 'Fraud scores the account asks for, per minute; every request counts, found or not.',
      },
      {
        ...perDay,
        action: 'fraud_score',
        keyedBy: 'account',
        appliesTo: 'Fraud scores the account asks for per UTC day (the free tier); resets at midnight UTC.',
      },
    );
  }
  limits.push(
    {
      rule: SIGN_IN_FAILURES_PER_ACCOUNT,
      subject: email,
      action: 'failed_sign_in',
      keyedBy: 'email_address',
      appliesTo:
        "Failed sign-ins with the account's email address; once spent, the account is locked until the window ends.",
    },
    {
      rule: SIGN_IN_FAILURES_PER_IP,
      subject: ip,
      action: 'failed_sign_in',
      keyedBy: 'ip_address',
      appliesTo: 'Failed sign-ins from this IP address, whatever the account.',
    },
    {
      rule: SIGN_UPS_PER_IP,
      subject: ip,
      action: 'sign_up',
      keyedBy: 'ip_address',
      appliesTo: 'Sign-ups from this IP address, whatever their outcome.',
    },
    {
      rule: CHALLENGES_PER_EMAIL,
      subject: email,
      action: 'email_code_request',
      keyedBy: 'email_address',
      appliesTo: "Verified-email code requests for the account's email address.",
    },
    {
      rule: CHALLENGES_PER_IP,
      subject: ip,
      action: 'email_code_request',
      keyedBy: 'ip_address',
      appliesTo: 'Verified-email code requests from this IP address.',
    },
    {
      rule: CLAIMS_PER_EMAIL,
      subject: email,
      action: 'email_code_claim',
      keyedBy: 'email_address',
      appliesTo: "Verified-email code claims for the account's email address.",
    },
    {
      rule: CLAIMS_PER_IP,
      subject: ip,
      action: 'email_code_claim',
      keyedBy: 'ip_address',
      appliesTo: 'Verified-email code claims from this IP address.',
    },
    {
      rule: PARTNER_CALLS_PER_IP,
      subject: ip,
      action: 'partner_call',
      keyedBy: 'ip_address',
      appliesTo: 'Partner calls (account creation and authorization together) from this IP address.',
    },
  );
  return limits;
}
