import type { TokenKind } from './access-token.entity.ts';
import type { Scope } from './scopes.ts';

/** Who is calling: built once per request from the bearer token, the same on every surface. */
export interface Principal {
  accountId: string;
  scopes: ReadonlySet<Scope>;
  tokenId: string;
  /**
   * `upload`: a scoped upload token, valid for `uploadSessionId` only. `session`: the account holder
   * signed in to the developer settings pages (a cookie, not a bearer token).
   */
  tokenKind: TokenKind | 'upload' | 'session';
  uploadSessionId?: string;
  /** OAuth access tokens: the resource they were issued for (RFC 8707); null for the others. */
  audience?: string | null;
  /** Tokens issued to an allowlisted partner: its provenance tag (docs/partners.md). */
  provenance?: string | null;
}
