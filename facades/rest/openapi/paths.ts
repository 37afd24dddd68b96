/** Express-style `:name` parameters in a route path, in order. */
export function pathParameterNames(expressPath: string): string[] {
  return [...expressPath.matchAll(/:([A-Za-z_$][\w$]*)/g)].map((m) => m[1] ?? '');
}

/** `/releases/:id/status` → `/releases/{id}/status`, the OpenAPI spelling. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
}
