import type { StoreAdapter } from './store-adapter.ts';

/** Which adapter delivers to which store: the one place the delivery core learns it. */
export interface StoreAdapters {
  forStore(storeId: number): StoreAdapter;
  /** Every adapter, each once. */
  readonly all: readonly StoreAdapter[];
}

/**
 * Every store on `unconnected` (the sandbox), except the stores `connected` names (an operator's store
 * connections: DDEX over SFTP). The composition builds it; the core only asks it.
 */
export function storeAdapters(
  unconnected: StoreAdapter,
  connected: ReadonlyMap<number, StoreAdapter> = new Map(),
): StoreAdapters {
  const all = [...new Set([unconnected, ...connected.values()])];
  return {
    forStore: (storeId) => connected.get(storeId) ?? unconnected,
    all,
  };
}
