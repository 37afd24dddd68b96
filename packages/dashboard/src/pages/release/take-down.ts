import { DashboardTakeDownDocument } from '../../generated/graphql.ts';
import type { Api } from '../../lib/api.ts';
import { h } from '../../lib/dom.ts';
import { runConfirmedStoreAction } from './confirmed-store-action.ts';
import { skippedText, storeChoice, storeList } from './store-choice.ts';
import { isActive, type StoreRow } from './store-table.ts';

/**
 * "Take down": from every store that has the release, or from the ones chosen, behind a confirmation
 * that says what it does and that it cannot be undone; then `takedownRelease`. The table shows
 * "Takedown requested", then each store's confirmation as it comes.
 */
export function takeDownSection(options: {
  api: Api;
  releaseId: string;
  title: string;
  onDone: () => Promise<void>;
}) {
  let active: StoreRow[] = [];
  const every = h('input', { type: 'radio', name: 'takedown-scope', value: 'all', checked: true });
  const some = h('input', { type: 'radio', name: 'takedown-scope', value: 'some' });
  const choice = storeChoice('Stores to take the release down from', 'takedown-store');
  choice.element.hidden = true;
  const button = h('button', { type: 'submit', class: 'danger' }, 'Take down…');
  const none = h('p', { class: 'muted', hidden: true }, 'No store has the release now.');
  const form = h(
    'form',
    { class: 'stack', id: 'take-down', 'aria-labelledby': 'takedown-heading' },
    h(
      'fieldset',
      {},
      h('legend', {}, 'From'),
      h('label', { class: 'check' }, every, 'Every store that has the release'),
      h('label', { class: 'check' }, some, 'Only the stores I choose'),
    ),
    choice.element,
    h('div', { class: 'actions' }, button),
  );
  const onScope = () => {
    choice.element.hidden = !some.checked;
  };
  every.addEventListener('change', onScope);
  some.addEventListener('change', onScope);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = some.checked ? choice.chosen() : null;
    if (chosen?.length === 0)
      return choice.complain('Choose at least one store, or take the release down everywhere.');
    const names = (chosen ?? active.map((row) => row.storeId)).map(
      (id) => active.find((row) => row.storeId === id)?.storeName ?? `Store ${id}`,
    );
    await runConfirmedStoreAction({
      confirmation: {
        title: chosen
          ? `Take “${options.title}” down from ${storeList(names)}?`
          : `Take “${options.title}” down from every store?`,
        consequences: [
          h(
            'p',
            {},
            `${chosen ? storeList(names) : `All ${names.length === 1 ? 'one store' : `${names.length} stores`} (${storeList(names)})`} will remove the release: it stops streaming and selling there, and its store links stop working.`,
          ),
          h(
            'p',
            {},
            h('strong', {}, 'This cannot be undone.'),
            ' Each store confirms over the next delivery steps; to be in a store again later, add it again as a new delivery.',
          ),
        ],
        confirmLabel: chosen
          ? `Take down from ${chosen.length === 1 ? 'this store' : `${chosen.length} stores`}`
          : 'Take down everywhere',
        destructive: true,
      },
      button,
      act: async () => {
        const { takedownRelease: result } = await options.api.mutate(DashboardTakeDownDocument, {
          releaseId: options.releaseId,
          storeIds: chosen,
        });
        const requested = result.requestedStoreIds.map(
          (id) => active.find((row) => row.storeId === id)?.storeName ?? `Store ${id}`,
        );
        return `${requested.length > 0 ? `Takedown requested from ${storeList(requested)}.` : 'No takedown was requested.'}${skippedText(result.skippedStoreIds)}`;
      },
      onDone: options.onDone,
    });
  });
  return {
    element: h(
      'section',
      { 'aria-labelledby': 'takedown-heading' },
      h('h2', { id: 'takedown-heading' }, 'Take down'),
      form,
      none,
    ),
    /** Offers the stores that have (or are getting) the release. */
    show(rows: readonly StoreRow[]) {
      active = rows.filter((row) => isActive(row.statusText));
      choice.show(active.map((row) => ({ storeId: row.storeId, label: row.storeName })));
      form.hidden = active.length === 0;
      none.hidden = active.length > 0;
    },
  };
}
