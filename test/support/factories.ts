import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccount } from '../../src/domains/accounts/create-account.ts';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import type { Scope } from '../../src/domains/accounts/scopes.ts';
import type { TokenExpiry } from '../../src/domains/accounts/token-expiry.ts';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';

let counter = 0;

export interface AccountFixture {
  accountId: string;
  email: string;
  token: string;
  tokenId: string;
}

export async function accountWithToken(
  em: EntityManager,
  options: {
    credits?: number;
    scopes?: Scope[];
    insider?: boolean;
    expires?: TokenExpiry;
    email?: string;
    /** Default `Artist<n>`, n counting this process's accounts. */
    lastName?: string;
  } = {},
): Promise<AccountFixture> {
  counter += 1;
  const email = options.email ?? `artist${counter}-${process.pid}-${Date.now()}@example.test`;
  const account = await createAccount(em, {
    email,
    firstName: 'Ada',
    lastName: options.lastName ?? `Artist${counter}`,
    isInsider: options.insider ?? false,
  });
  const issued = await issueToken(em, {
    accountId: account.id,
    name: 'test token',
    scopes: options.scopes ?? ['svc:mcp'],
    expires: options.expires ?? 'none',
  });
  if (options.credits)
    await grantCredits(em, { accountId: account.id, credits: options.credits, ref: 'test:seed' });
  return { accountId: account.id, email: account.email, token: issued.token, tokenId: issued.record.id };
}
