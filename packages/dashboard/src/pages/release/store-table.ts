import type { DashboardStoreRowFragment } from '../../generated/graphql.ts';
import { h } from '../../lib/dom.ts';

/** A store's row as the status read and the events give it (the same four fields). */
export type StoreRow = DashboardStoreRowFragment;

const COLUMNS = ['Store', 'Status', 'Details'] as const;

/** `Rejected: <reason>` and `Delivery failed`: the store will not have the release as it is. */
export const isFailure = (text: string) => text.startsWith('Rejected') || text === 'Delivery failed';
/** Stores that have, or are getting, the release: what a takedown can act on. */
export const isActive = (text: string) => !isFailure(text) && !text.startsWith('Takedown');

const REJECTED = /^Rejected: (.*)$/s;

function statusCell(text: string): HTMLTableCellElement {
  const rejected = REJECTED.exec(text);
  return h(
    'td',
    { 'data-label': 'Status', class: isFailure(text) ? 'store-failed' : null },
    rejected ? 'Rejected' : text,
  );
}

function detailsCell(row: StoreRow): HTMLTableCellElement {
  const rejected = REJECTED.exec(row.statusText);
  const content = row.urlInStore
    ? // A link is navigation, never fetched by the page (the policy's connect-src is this origin only).
      h(
        'a',
        { href: row.urlInStore, rel: 'noopener noreferrer', target: '_blank' },
        'Open in store',
        h('span', { class: 'visually-hidden' }, ` ${row.storeName} (opens a new tab)`),
      )
    : rejected
      ? `Reason: ${rejected[1]}`
      : row.statusText === 'Delivery failed'
        ? 'The store did not accept the delivery. Add the store again to retry.'
        : '—';
  return h('td', { 'data-label': 'Details' }, content);
}

/**
 * The per-store table of a release: rows by store id, each updated in place when its status changes
 * (`set`), so a screen reader's place and the page's scroll stay put. `data-updated-at` on a changed
 * row and on the table is the time (`Date.now()`) the page showed the change.
 */
export class StoreTable {
  readonly element: HTMLTableElement;
  readonly #body = h('tbody');
  readonly #rows = new Map<number, { data: StoreRow; element: HTMLTableRowElement }>();

  constructor() {
    this.element = h(
      'table',
      { class: 'cards stores', id: 'stores' },
      h('caption', { class: 'visually-hidden' }, 'Where the release stands in each store'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
        ),
      ),
      this.#body,
    );
  }

  get rows(): StoreRow[] {
    return [...this.#rows.values()].map((row) => row.data);
  }

  has(storeId: number): boolean {
    return this.#rows.has(storeId);
  }

  /**
   * Shows these stores as given (others keep their rows); answers the rows that changed, new ones
   * included, so the caller can say what moved.
   */
  set(rows: readonly StoreRow[]): StoreRow[] {
    const changed: StoreRow[] = [];
    const now = String(Date.now());
    for (const row of rows) {
      const current = this.#rows.get(row.storeId);
      if (current && current.data.statusText === row.statusText && current.data.urlInStore === row.urlInStore)
        continue;
      const element = h(
        'tr',
        { 'data-store-id': row.storeId, 'data-updated-at': now },
        h('th', { scope: 'row', 'data-label': 'Store' }, row.storeName),
        statusCell(row.statusText),
        detailsCell(row),
      );
      if (current) current.element.replaceWith(element);
      else this.#insert(row.storeId, element);
      this.#rows.set(row.storeId, { data: { ...row }, element });
      changed.push(row);
    }
    if (changed.length > 0) this.element.dataset.updatedAt = now;
    return changed;
  }

  /** A new store's row, in store-id order as the API lists them; the other rows are not moved. */
  #insert(storeId: number, element: HTMLTableRowElement): void {
    const after = [...this.#rows.entries()]
      .filter(([id]) => id > storeId)
      .sort(([a], [b]) => a - b)[0]?.[1].element;
    this.#body.insertBefore(element, after ?? null);
  }
}
