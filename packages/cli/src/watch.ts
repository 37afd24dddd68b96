import type { TributaryClient } from '@tributary/client';
import type { Output } from './output.ts';

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
    draw();
    if (events && !done()) {
      for await (const event of events) {
        if (event.__typename !== 'ReleaseStatusChanged') continue;
        aggregate = event.status;
        for (const store of event.storeStatuses) {
          const before = stores.get(store.storeId)?.statusText;
          stores.set(store.storeId, { ...store, urlInStore: store.urlInStore ?? null });
          if (!out.tty && before !== store.statusText)
            out.line(`${event.occurredAt} ${store.storeName}: ${store.statusText}`);
        }
        if (out.tty) draw();
        if (done()) break;
      }
    }
    const final = rows();
    return {
      releaseId,
      aggregateStatus: aggregate.toLowerCase(),
      stores: final,
      failedStores: final.filter((store) => isFailed(store.statusText)).map((store) => store.storeId),
    };
  } finally {
    await events?.return?.();
    await client.close();
  }
}
