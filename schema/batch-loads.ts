import type { Context } from './context.ts';

/**
 * Runs a DataLoader batch as one load, or, with GRAPHQL_BATCH_LOADS=false, one load per key as the
 * fields ran before they were batched: the benchmark compares both in one run (bench/release-list.ts).
 * Each per-key load returns the results of its one key, so the concatenation keeps the batch's shape.
 */
export async function batchLoads<K, V>(
  context: Context,
  keys: readonly K[],
  load: (keys: K[]) => Promise<V[]>,
): Promise<V[]> {
  if (context.app.config.GRAPHQL_BATCH_LOADS) return load([...keys]);
  return (await Promise.all(keys.map((key) => load([key])))).flat();
}
