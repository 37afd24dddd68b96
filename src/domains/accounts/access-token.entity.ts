import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { owningAccount } from './owning-account.ts';

export const TOKEN_KINDS = ['pat', 'verified_email', 'oauth', 'agent_login', 'dashboard'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * The token a dashboard page's script calls the API with: bound to a web session (it expires with it and
 * is revoked at its sign-out), never listed or revoked among the person's tokens (web-sessions.ts).
 */
export const SESSION_BOUND_KIND = 'dashboard' satisfies TokenKind;

export type ListedTokenKind = Exclude<TokenKind, typeof SESSION_BOUND_KIND>;

/** The kinds a person sees and manages as tokens (OAuth ones under their connected app). */
export const LISTED_TOKEN_KINDS = TOKEN_KINDS.filter(
  (kind): kind is ListedTokenKind => kind !== SESSION_BOUND_KIND,
);

export const AccessToken = defineEntity({
  name: 'AccessToken',
  tableName: 'access_tokens',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    kind: p.enum(TOKEN_KINDS).default('pat'),
    name: p.string().length(200),
    /** SHA-256 of the full token; the token itself is shown once and never stored. */
    tokenHash: p.string().length(64).unique(),
    /** First characters of the token, enough for a person to recognise it in a list. */
    displayPrefix: p.string().length(24),
    scopes: p.array(),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /** OAuth access tokens: the grant that issued them (revoking the grant revokes them) and their audience. */
    grantId: p.string().length(100).nullable().index(),
    audience: p.string().length(500).nullable(),
    /** Tokens issued to a partner's client: its provenance tag, put on every release submitted with them. */
    provenance: p.string().length(100).nullable(),
    createdAt: columns.createdAt(),
  },
});

export type AccessToken = InferEntity<typeof AccessToken>;
