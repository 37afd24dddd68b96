import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../../platform/crypto.ts';
import { unauthenticated } from '../../platform/errors.ts';
import { verifyTokenHash } from './authenticate.ts';
import type { Principal } from './principal.ts';

/** How long a verified token is trusted without asking the database again. */
export const VERIFIED_TOKEN_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

export const VERIFIED_TOKENS_CACHE = 'verified-tokens';

interface Entry {
  principal: Principal;
  expiresAt: Date | null;
}

/**
 * Tokens verified in the last few seconds, by the SHA-256 of the token (never the token itself): a
 * request with a token seen recently costs no database round trip. A revocation drops the entry at
 * once in this process and, through the pub/sub, in every other (VerifiedTokens.revoked); an expiry is
 * checked on every hit; anything else a token could lose is bounded by the TTL.
 */
export class VerifiedTokens {
  /** token id → hash, to drop a revoked token's entry; an entry leaving the cache leaves this too. */
  private readonly hashes = new Map<string, string>();
  private readonly entries = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    ttl: VERIFIED_TOKEN_TTL_MS,
    dispose: (entry, hash) => {
      if (this.hashes.get(entry.principal.tokenId) === hash) this.hashes.delete(entry.principal.tokenId);
    },
  });

  private readonly announce: (tokenId: string) => Promise<void>;
  readonly name = 'verified-tokens';
  /** Requests whose token was verified a moment ago, and those that went to the database (metrics). */
  hits = 0;
  misses = 0;

  /** `announce` tells the other instances (the pub/sub); they call drop. */
  constructor(announce: (tokenId: string) => Promise<void>) {
    this.announce = announce;
  }

  async authenticate(em: () => EntityManager, token: string, now = new Date()): Promise<Principal> {
    const hash = sha256Hex(token);
    const cached = this.entries.get(hash);
    if (cached) {
      if (cached.expiresAt && cached.expiresAt.getTime() <= now.getTime()) {
        this.drop(cached.principal.tokenId);
        throw unauthenticated('The bearer token has expired.', 'token_expired');
      }
      this.hits++;
      return cached.principal;
    }
    this.misses++;
    const verified = await verifyTokenHash(em(), hash, now);
    this.entries.set(hash, verified);
    this.hashes.set(verified.principal.tokenId, hash);
    return verified.principal;
  }

  /** A token was revoked: every instance forgets it now. */
  async revoked(tokenId: string): Promise<void> {
    this.drop(tokenId);
    await this.announce(tokenId);
  }

  /** Forgets every token (revocations announced while the pub/sub was away may have been missed). */
  clear(): void {
    this.entries.clear();
    this.hashes.clear();
  }

  /** Drops the entry of a token (a revocation here or announced by another instance). */
  drop(tokenId: string): void {
    const hash = this.hashes.get(tokenId);
    if (hash === undefined) return;
    this.entries.delete(hash);
    this.hashes.delete(tokenId);
  }
}
