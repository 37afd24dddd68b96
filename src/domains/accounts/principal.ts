import type { TokenKind } from './access-token.entity.ts';
import type { Scope } from './scopes.ts';

/** Who is calling: built once per request from the bearer token, the same on every surface. */
export interface Principal {
  accountId: string;
  scopes: ReadonlySet<Scope>;
  tokenId: string;
  /** `upload`: a scoped upload token, valid for `uploadSessionId` only. */
  tokenKind: TokenKind | 'upload';
  uploadSessionId?: string;
  /** OAuth access tokens: the resource they were issued for (RFC 8707); null for the others. */
  audience?: string | null;
}
