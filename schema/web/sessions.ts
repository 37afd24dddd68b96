/**
 * The developer settings pages run GraphQL operations as the signed-in account holder: a cookie
 * session (not a bearer token) becomes a Principal with the account's full scopes, so a person can
 * create a `svc:fraud` token there.
 */
import { endWebSession, findWebSession, startWebSession } from '../../src/domains/accounts/index.ts';
import type { Principal } from '../context.ts';
import type { AppServices } from '../services.ts';

export { WEB_SESSION_TTL_MS } from '../../src/domains/accounts/index.ts';

export async function signInToSettings(app: AppServices, accountId: string) {
  return startWebSession(app.orm.em.fork(), accountId);
}

export async function settingsPrincipal(app: AppServices, secret: string): Promise<Principal | null> {
  const session = await findWebSession(app.orm.em.fork(), secret);
  if (!session) return null;
  return {
    accountId: session.accountId,
    scopes: new Set(['svc:mcp', 'svc:fraud'] as const),
    tokenId: `session:${session.id}`,
    tokenKind: 'session',
  };
}

export async function signOutOfSettings(app: AppServices, secret: string): Promise<void> {
  await endWebSession(app.orm.em.fork(), secret);
}
