import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimits } from '../../platform/rate-limit/index.ts';
import { getAccount } from '../accounts/index.ts';

/** The agent HTTP submit endpoint: 3 submissions per 5 minutes per account, 10 for insiders. */
export const AGENT_SUBMIT_LIMIT = { standard: 3, insider: 10, windowSeconds: 300 } as const;

/** Takes one submission from the account's allowance; over it, 429 rate_limit_error with retryAfterSeconds. */
export async function consumeAgentSubmitAllowance(
  em: EntityManager,
  rateLimits: RateLimits,
  accountId: string,
): Promise<void> {
  const account = await getAccount(em, accountId);
  const points = account.isInsider ? AGENT_SUBMIT_LIMIT.insider : AGENT_SUBMIT_LIMIT.standard;
  await rateLimits.consume(
    { name: `agent-submit-${points}`, points, windowSeconds: AGENT_SUBMIT_LIMIT.windowSeconds },
    accountId,
    `At most ${points} submissions per ${AGENT_SUBMIT_LIMIT.windowSeconds / 60} minutes on this endpoint.`,
  );
}
