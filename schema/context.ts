import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../src/domains/accounts/index.ts';

export type { Principal };

import { mcpResourceUrl } from '../src/domains/oauth/index.ts';
import { authenticateUploadToken } from '../src/domains/uploads/index.ts';
import { unauthenticated } from '../src/platform/errors.ts';
import type { AppServices } from './services.ts';

/**
 * The surface a request came through. The facade that builds the context sets it; no argument a client
 * sends can (limits such as the agent HTTP submit allowance depend on it).
 */
export type Channel = 'graphql' | 'rest' | 'agent_http' | 'agent_tool';

/** Who sent the request, as the facade saw it: limits per address and provenance from a partner host. */
export interface ClientInfo {
  ip: string;
  origin: string | null;
  referer: string | null;
}

const UNKNOWN_CLIENT: ClientInfo = { ip: 'unknown', origin: null, referer: null };

export interface Context {
  app: AppServices;
  /** A fork of the ORM's EntityManager: one identity map per request. */
  em: EntityManager;
  principal: Principal | null;
  requestId: string;
  channel: Channel;
  client: ClientInfo;
}

export function createContext(
  app: AppServices,
  principal: Principal | null,
  options: { requestId?: string | undefined; channel?: Channel; client?: ClientInfo | undefined } = {},
): Context {
  let em: EntityManager | undefined;
  return {
    app,
    // Forked on first use: a request that reads no row (the service status, a cached answer) forks none.
    get em() {
      em ??= app.orm.em.fork();
      return em;
    },
    principal,
    requestId: options.requestId ?? randomUUID(),
    channel: options.channel ?? 'graphql',
    client: options.client ?? UNKNOWN_CLIENT,
  };
}

/** Parses `Authorization: Bearer <token>`; anything else present in the header is an invalid token. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <access_token>".');
  return match[1];
}

/** The one place a request becomes a Principal, for all three surfaces. No token → anonymous. */
export async function authenticate(app: AppServices, token: string | null): Promise<Principal | null> {
  if (token === null) return null;
  const principal = await app.verifiedTokens.authenticate(() => app.orm.em.fork(), token);
  if (principal.tokenKind === 'oauth' && principal.audience !== mcpResourceUrl(app.config)) {
    throw unauthenticated('The bearer token was issued for another resource.', 'invalid_audience');
  }
  return principal;
}

/** A scoped upload token (header `x-mcp-upload-token`): acts on its one session only. */
export async function authenticateUpload(app: AppServices, token: string): Promise<Principal> {
  return authenticateUploadToken(app.orm.em.fork(), token);
}

export function requirePrincipal(context: Context): Principal {
  if (!context.principal) throw unauthenticated('A bearer token is required.', 'missing_token');
  return context.principal;
}
