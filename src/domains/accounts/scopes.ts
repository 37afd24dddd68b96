export const SCOPES = ['svc:mcp', 'svc:fraud'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPES: Scope[] = ['svc:mcp'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes honoured on personal access tokens only (the spec: the fraud endpoint needs a PAT). */
export const PAT_ONLY_SCOPES: readonly Scope[] = ['svc:fraud'];

/** The scopes a token of this kind is honoured with: a PAT-only scope on any other token is dropped. */
export function honouredScopes(kind: string, scopes: readonly string[]): Set<Scope> {
  return new Set(
    scopes.filter(isScope).filter((scope) => kind === 'pat' || !PAT_ONLY_SCOPES.includes(scope)),
  );
}
