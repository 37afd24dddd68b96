/**
 * The web pages' sessions. The developer settings pages run GraphQL operations as the signed-in account
 * holder: a cookie session (not a bearer token) becomes a Principal with the account's full scopes, so
 * a person can create a `svc:fraud` token there. The dashboard's pages run in the browser on the public
 * API instead, with the session's dashboard token (`svc:mcp` only; docs/dashboard.md).
 */
import {
  endWebSession,
  findWebSession,
  type SessionToken,
  sessionToken,
  startWebSession,
} from '../../src/domains/accounts/index.ts';
import type { Principal } from '../context.ts';
import type { AppServices } from '../services.ts';

export { WEB_SESSION_TTL_MS } from '../../src/domains/accounts/index.ts';

export async function signInToWebPages(app: AppServices, accountId: string) {
  return startWebSession(app.orm.em.fork(), accountId);
}

/** A signed-in session: its id, and the account holder as the settings pages act for them. */
export interface WebSessionView {
  sessionId: string;
  principal: Principal;
}

export async function webSessionOf(app: AppServices, secret: string): Promise<WebSessionView | null> {
  const session = await findWebSession(app.orm.em.fork(), secret);
  if (!session) return null;
  return {
    sessionId: session.id,
    principal: {
      accountId: session.accountId,
      scopes: new Set(['svc:mcp', 'svc:fraud'] as const),
      tokenId: `session:${session.id}`,
      tokenKind: 'session',
    },
  };
}

/** The session's dashboard token (minted on its first dashboard page); null once the session ended. */
export async function dashboardTokenOf(app: AppServices, sessionId: string): Promise<SessionToken | null> {
  return sessionToken(app.orm.em.fork(), sessionId, app.webhookSecretKey);
}

/** Ends the session and revokes its dashboard token, on every instance's cache of verified tokens too. */
export async function signOutOfWebPages(app: AppServices, secret: string): Promise<void> {
  const { revokedTokenId } = await endWebSession(app.orm.em.fork(), secret);
  if (revokedTokenId) await app.verifiedTokens.revoked(revokedTokenId);
}
