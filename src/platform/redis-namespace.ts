/**
 * What this deployment's Redis channels and keys start with. Processes of one deployment share a
 * database, so by default the namespace is named after it: two deployments (or two test databases) on
 * one Redis neither hear each other's events and invalidations nor share rate-limit counters.
 * REDIS_NAMESPACE overrides it, e.g. when two deployments use databases of the same name.
 */
export function redisNamespace(configured: string | undefined, databaseUrl: string): string {
  if (configured) return configured;
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'postgres';
  return `tributary:${database}`;
}
