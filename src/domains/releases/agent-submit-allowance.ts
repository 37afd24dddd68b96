import type { EntityManager } from '@mikro-orm/postgresql';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import { getAccount } from '../accounts/index.ts';

/** The agent HTTP submit endpoint: 3 submissions per 5 minutes per account, 10 for insiders. */
export const AGENT_SUBMIT_LIMIT = { standard: 3, insider: 10, windowSeconds: 300 } as const;

/**
 * The account's budget on that endpoint. The counter is per limit (an account that becomes an insider
 * starts a fresh one); clients see one policy name either way.
 */
export function agentSubmitRule(isInsider: boolean): LimitRule {
  const points = isInsider ? AGENT_SUBMIT_LIMIT.insider : AGENT_SUBMIT_LIMIT.standard;
  return {
    name: `agent-submit-${points}`,
    policy: 'agent-submit',
    points,
    windowSeconds: AGENT_SUBMIT_LIMIT.windowSeconds,
  };
}

/** Takes one submission from the account's allowance; over it, 429 rate_limit_error with retryAfterSeconds. */
export async function consumeAgentSubmitAllowance(
  em: EntityManager,
  rateLimits: RateLimits,
  accountId: string,
): Promise<void> {
  const account = await getAccount(em, accountId);
  const rule = agentSubmitRule(account.isInsider);
  await rateLimits.consume(
    rule,
    accountId,
    `At most ${rule.points} submissions per ${AGENT_SUBMIT_LIMIT.windowSeconds / 60} minutes on this endpoint.`,
  );
}
