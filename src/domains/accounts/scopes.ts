export const SCOPES = ['svc:mcp', 'svc:fraud'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPES: Scope[] = ['svc:mcp'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
