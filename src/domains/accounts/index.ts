export {
  AccessToken,
  LISTED_TOKEN_KINDS,
  type ListedTokenKind,
} from './access-token.entity.ts';
export { Account } from './account.entity.ts';
export { agentLogin } from './agent-login.ts';
export { createAccount, normaliseEmail } from './create-account.ts';
export { findAccountByEmail, getAccount } from './get-account.ts';
export { type BearerToken, issueBearerToken, issueToken } from './issue-token.ts';
export { listTokens, revokeToken, revokeTokenById, TOKEN_STATUSES, tokenStatus } from './manage-tokens.ts';
export type { Principal } from './principal.ts';
export { type Profile, readProfile } from './read-profile.ts';
export { DEFAULT_SCOPES, isScope, PAT_ONLY_SCOPES, SCOPES, type Scope } from './scopes.ts';
export { SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_IP, signIn } from './sign-in.ts';
export { pruneSignInEvents } from './sign-in-events.ts';
export { SIGN_UPS_PER_IP, signUp } from './sign-up.ts';
export { parseTokenExpiry, TOKEN_EXPIRIES, type TokenExpiry } from './token-expiry.ts';
export { VERIFIED_TOKENS_CACHE, VerifiedTokens } from './verified-tokens.ts';
export {
  endWebSession,
  findWebSession,
  pruneSessionTokens,
  type SessionToken,
  sessionToken,
  startWebSession,
  WEB_SESSION_TTL_MS,
} from './web-sessions.ts';
