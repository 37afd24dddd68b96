import type { TributaryClient } from '@tributary/client';
import type { Output } from './output.ts';

/** How often a watch reads the status besides the events. */
const STATUS_READ_MS = 10_000;

export interface StoreRow {
  storeId: number;
  storeName: string;
  statusText: string;
  urlInStore: string | null;
}

/** A store whose delivery will not move again on its own (docs/delivery.md). */
export const isFinal = (statusText: string) =>
  statusText === 'Live' ||
  statusText === 'Takedown delivered' ||
  statusText === 'Delivery failed' ||
  statusText.startsWith('Rejected');

export const isFailed = (statusText: string) =>
  statusText === 'Delivery failed' || statusText.startsWith('Rejected');

export interface WatchResult {
  releaseId: string;
  aggregateStatus: string;
  stores: StoreRow[];
  failedStores: number[];
}

function table(aggregate: string, stores: StoreRow[]): string[] {
  const width = Math.max(5, ...stores.map((store) => store.storeName.length));
  return [
    `Release status: ${aggregate}`,
    `${'STORE'.padEnd(width)}  STATUS`,
    ...stores.map(
      (store) =>
        `${store.storeName.padEnd(width)}  ${store.statusText}${store.urlInStore ? `  ${store.urlInStore}` : ''}`,
    ),
  ];
}

/**
 * Follows a release until every store is final: the status read first, then the `releaseEvents`
 * subscription (opened before the read, so no change falls between). A terminal redraws the table in
 * place; otherwise each store's change is a line.
 */
export async function watchRelease(
  client: TributaryClient,
  releaseId: string,
  out: Output,
  follow: boolean,
): Promise<WatchResult> {
  const events = follow ? client.releaseEvents({ releaseId }) : undefined;
  try {
    const { data } = await client.rest.GET('/releases/{id}/status', { params: { path: { id: releaseId } } });
    const stores = new Map<number, StoreRow>(data!.stores.map((store) => [store.storeId, { ...store }]));
    let aggregate = data!.aggregateStatus.toUpperCase();
    let drawn = 0;
    const rows = () => [...stores.values()].sort((a, b) => a.storeId - b.storeId);
    const draw = () => {
      const lines = table(aggregate, rows());
      if (out.tty) {
        process.stdout.write(
          `${drawn ? `\x1b[${drawn}A` : ''}${lines.map((line) => `\x1b[2K${line}\n`).join('')}`,
        );
        drawn = lines.length;
      } else if (!drawn) {
        for (const line of lines) out.line(line);
        drawn = lines.length;
      }
    };
    const done = () => stores.size > 0 && [...stores.values()].every((store) => isFinal(store.statusText));
    const apply = (store: StoreRow, at: string) => {
      const before = stores.get(store.storeId)?.statusText;
      stores.set(store.storeId, { ...store, urlInStore: store.urlInStore ?? null });
      if (!out.tty && before !== store.statusText) out.line(`${at} ${store.storeName}: ${store.statusText}`);
    };
    draw();
    if (events && !done()) {
      // The events drive the table; a read now and then catches a change made between the first read
      // and the subscription's start, so the watch never waits on an event that came before it.
      let pending = events.next();
      while (!done()) {
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<'read'>((resolve) => {
          timer = setTimeout(() => resolve('read'), STATUS_READ_MS);
        });
        const outcome = await Promise.race([pending, tick]).finally(() => clearTimeout(timer));
        if (outcome === 'read') {
          const { data: now } = await client.rest.GET('/releases/{id}/status', {
            params: { path: { id: releaseId } },
          });
          aggregate = now!.aggregateStatus.toUpperCase();
          for (const store of now!.stores) apply(store, new Date().toISOString());
        } else {
          if (outcome.done) break;
          pending = events.next();
          const event = outcome.value;
          if (event.__typename !== 'ReleaseStatusChanged') continue;
          aggregate = event.status;
          for (const store of event.storeStatuses)
            apply({ ...store, urlInStore: store.urlInStore ?? null }, event.occurredAt);
        }
        if (out.tty) draw();
      }
      // A next() is still waiting: closing the client's socket (below) ends it.
      pending.catch(() => {});
    }
    const final = rows();
    return {
      releaseId,
      aggregateStatus: aggregate.toLowerCase(),
      stores: final,
      failedStores: final.filter((store) => isFailed(store.statusText)).map((store) => store.storeId),
    };
  } finally {
    await client.close();
  }
}
