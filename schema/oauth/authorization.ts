/**
 * What the authorization server (facades/oauth, on oidc-provider) needs from the accounts and OAuth
 * domains: its storage, its keys, and password sign-in and sign-up. These are not GraphQL operations:
 * they run before there is a bearer token to run one with.
 */
import { Account, signIn, signUp } from '../../src/domains/accounts/index.ts';
import { type OAuthAdapter, oauthAdapterClass } from '../../src/domains/oauth/index.ts';
import type { AppServices } from '../services.ts';

export { loadOAuthKeys, mcpResourceUrl, OAUTH_SCOPE, type OAuthKeys } from '../../src/domains/oauth/index.ts';
export type { AuthorizationCodes } from '../../src/domains/partners/index.ts';

/** oidc-provider's adapter over PostgreSQL; revoked access tokens leave every instance's cache. */
export function oauthStorage(app: AppServices, sealKey: Uint8Array): new (kind: string) => OAuthAdapter {
  return oauthAdapterClass({
    em: () => app.orm.em.fork(),
    sealKey,
    onRevoked: async (ids) => {
      await Promise.all(ids.map((id) => app.verifiedTokens.revoked(id)));
    },
  });
}

/** The account id for an email and password; throws invalid_credentials, account_locked or 429. */
export async function passwordSignIn(
  app: AppServices,
  input: { email: string; password: string; ip: string },
): Promise<string> {
  return (await signIn(app.orm.em.fork(), app.rateLimits, input)).id;
}

/**
 * A new account with a password (email_taken, weak_password, invalid email refused; 429 past the
 * sign-ups per IP); its id.
 */
export async function passwordSignUp(
  app: AppServices,
  input: { email: string; password: string; firstName: string | null; lastName: string | null; ip: string },
): Promise<string> {
  return (await signUp(app.orm.em.fork(), app.rateLimits, input)).id;
}

export async function accountExists(app: AppServices, accountId: string): Promise<boolean> {
  return (await app.orm.em.fork().count(Account, { id: accountId })) > 0;
}

export async function accountEmail(app: AppServices, accountId: string): Promise<string | null> {
  const account = await app.orm.em.fork().findOne(Account, { id: accountId }, { fields: ['email'] });
  return account?.email ?? null;
}
