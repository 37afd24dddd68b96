import { DashboardAddStoresDocument, type DashboardReleaseQuery } from '../../generated/graphql.ts';
import type { Api } from '../../lib/api.ts';
import { h } from '../../lib/dom.ts';
import { runConfirmedStoreAction } from './confirmed-store-action.ts';
import { skippedText, storeChoice, storeList } from './store-choice.ts';
import { isFailure, type StoreRow } from './store-table.ts';

type CatalogStore = DashboardReleaseQuery['distributionStores']['stores'][number];

/** A store can be added when the release is not there: never sent, failed or rejected, or taken down. */
const canAdd = (row: StoreRow | undefined) =>
  !row || isFailure(row.statusText) || row.statusText === 'Takedown delivered';

/**
 * "Add stores": the catalogue's stores the release is not in, a confirmation naming them, then
 * `distributeRelease`; the table shows them queued (`onDone` re-reads the status).
 */
export function addStoresSection(options: {
  api: Api;
  releaseId: string;
  title: string;
  catalog: readonly CatalogStore[];
  onDone: () => Promise<void>;
}) {
  const choice = storeChoice('Stores to add', 'add-store');
  const button = h('button', { type: 'submit' }, 'Add stores…');
  const none = h('p', { class: 'muted', hidden: true }, 'The release is in every store of the catalogue.');
  const form = h(
    'form',
    { class: 'stack', id: 'add-stores', 'aria-labelledby': 'add-heading' },
    choice.element,
    h('div', { class: 'actions' }, button),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const storeIds = choice.chosen();
    if (storeIds.length === 0) return choice.complain('Choose at least one store to add.');
    const names = storeIds.map((id) => options.catalog.find((s) => s.storeId === id)?.name ?? `Store ${id}`);
    await runConfirmedStoreAction({
      confirmation: {
        title: `Add ${storeIds.length === 1 ? 'one store' : `${storeIds.length} stores`}?`,
        consequences: [
          h('p', {}, `“${options.title}” will be sent to ${storeList(names)}.`),
          h(
            'p',
            {},
            'Each store inspects the release before it goes live there; the table below follows it store by store.',
          ),
        ],
        confirmLabel: storeIds.length === 1 ? 'Add the store' : `Add ${storeIds.length} stores`,
      },
      button,
      act: async () => {
        const { distributeRelease: result } = await options.api.mutate(DashboardAddStoresDocument, {
          releaseId: options.releaseId,
          storeIds,
        });
        const queued = result.queuedStoreIds.map(
          (id) => options.catalog.find((s) => s.storeId === id)?.name ?? `Store ${id}`,
        );
        return `${queued.length > 0 ? `Queued for ${storeList(queued)}.` : 'No store was added.'}${skippedText(result.skippedStoreIds)}`;
      },
      onDone: options.onDone,
    });
  });
  return {
    element: h(
      'section',
      { 'aria-labelledby': 'add-heading' },
      h('h2', { id: 'add-heading' }, 'Add stores'),
      form,
      none,
    ),
    /** The choice follows the table: a store just queued is no longer offered. */
    show(rows: readonly StoreRow[]) {
      const byId = new Map(rows.map((row) => [row.storeId, row]));
      const offered = options.catalog
        .filter((store) => canAdd(byId.get(store.storeId)))
        .map((store) => ({
          storeId: store.storeId,
          label: `${store.name}${byId.has(store.storeId) ? ' (again)' : ''}${store.requiresPartnerApproval ? ' (needs partner approval)' : ''}`,
        }));
      choice.show(offered);
      form.hidden = offered.length === 0;
      none.hidden = offered.length > 0;
    },
  };
}
