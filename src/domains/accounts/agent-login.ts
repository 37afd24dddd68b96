import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimits } from '../../platform/rate-limit/index.ts';
import { issueBearerToken } from './issue-token.ts';
import { signIn } from './sign-in.ts';

/** How long a token from the auth_login tool lives (revocable in developer settings before that). */
export const AGENT_LOGIN_TTL_HOURS = 24;

/**
 * The auth_login tool: an email and password (the same throttling and account_locked as every sign-in)
 * become a bearer token of kind agent_login with scope svc:mcp, returned once.
 */
export async function agentLogin(
  em: EntityManager,
  limits: RateLimits,
  input: { username: string; password: string; ip: string; now?: Date },
) {
  const account = await signIn(em, limits, { email: input.username, password: input.password, ip: input.ip });
  const now = input.now ?? new Date();
  return issueBearerToken(em, {
    accountId: account.id,
    name: 'Agent sign-in (auth_login)',
    scopes: ['svc:mcp'],
    kind: 'agent_login',
    now,
    lifetimeMs: AGENT_LOGIN_TTL_HOURS * 3_600_000,
  });
}
