import {
  type AggregateStatus,
  DashboardReleaseEventsDocument,
  type DashboardReleaseEventsSubscription,
} from '../../generated/graphql.ts';
import { showError } from '../../lib/alerts.ts';
import { h } from '../../lib/dom.ts';
import { SessionEndedError } from '../../lib/errors.ts';
import { formatDate } from '../../lib/format.ts';
import { createSubscriptions } from '../../lib/subscriptions.ts';
import type { StoreRow } from './store-table.ts';

type ReleaseEvent = DashboardReleaseEventsSubscription['releaseEvents'];

/** Changes that arrive together are announced once, after this quiet spell. */
const ANNOUNCE_AFTER_MS = 400;
/** Up to this many stores are named in an announcement; beyond, they are counted. */
const NAMED_STORES = 3;

/** "Spotify: Live." or "6 stores: In inspection.", one sentence per new status. */
export function describeChanges(rows: readonly StoreRow[]): string {
  const byStatus = new Map<string, string[]>();
  for (const row of rows)
    byStatus.set(row.statusText, [...(byStatus.get(row.statusText) ?? []), row.storeName]);
  return [...byStatus]
    .map(([status, stores]) =>
      stores.length <= NAMED_STORES
        ? `${stores.join(', ')}: ${status}.`
        : `${stores.length} stores: ${status}.`,
    )
    .join(' ');
}

/**
 * The live region under the store table: says what changed, politely (a screen reader finishes what it
 * is reading first), once per burst of changes, with the time.
 */
export function liveRegion(): {
  element: HTMLElement;
  announce(rows: readonly StoreRow[]): void;
  say(text: string): void;
} {
  const element = h('p', { id: 'store-updates', class: 'muted', role: 'status', 'aria-live': 'polite' });
  let pending: StoreRow[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    element,
    announce(rows) {
      pending = [...pending.filter((p) => !rows.some((r) => r.storeId === p.storeId)), ...rows];
      clearTimeout(timer);
      timer = setTimeout(() => {
        element.textContent = `${describeChanges(pending)} (${formatDate(new Date().toISOString())})`;
        pending = [];
      }, ANNOUNCE_AFTER_MS);
    },
    say(text) {
      element.textContent = text;
    },
  };
}

export interface LiveHandlers {
  /** An event's stores, as it gives them (the stores it names, or every store when the aggregate moved). */
  onStores(rows: readonly StoreRow[], status: AggregateStatus): void;
  /** Read the whole status again: nothing has told the page about a moment it may have missed. */
  onResync(): void;
  onStopped(text: string): void;
}

/**
 * Follows the release's events over graphql-ws: each event's stores go straight to the table (the event
 * carries each store's name, status text and link: no read needed). The page resumes after the last
 * event it saw (`after: cursor`) whenever the socket comes back, so nothing published meanwhile is
 * missed; before any event, a (re)connection re-reads the status instead (a cheap GET: 304 when nothing
 * changed), which also covers the moment between the page's first read and the subscription.
 */
export function followRelease(
  options: { token: string; path: string; releaseId: string },
  handlers: LiveHandlers,
) {
  let cursor: string | null = null;
  const subscriptions = createSubscriptions({
    token: options.token,
    path: options.path,
    onConnected: () => {
      if (cursor === null) handlers.onResync();
    },
  });
  const stop = subscriptions.subscribe(
    DashboardReleaseEventsDocument,
    () => ({ releaseId: options.releaseId, after: cursor }),
    {
      next: ({ releaseEvents: event }) => {
        cursor = event.cursor;
        // A test event (triggerSandboxEvent) describes the release without the change being made.
        if (event.test) return;
        if (hasStores(event)) handlers.onStores(event.storeStatuses, event.status);
      },
      error: (error) => {
        if (error instanceof SessionEndedError) showError(error);
        handlers.onStopped('Live updates stopped: reload the page to see the latest statuses.');
      },
    },
  );
  return () => {
    stop();
    void subscriptions.close();
  };
}

const hasStores = (event: ReleaseEvent): event is Extract<ReleaseEvent, { storeStatuses: unknown }> =>
  'storeStatuses' in event;
