import {
  type AggregateStatus,
  DashboardReleaseDocument,
  type DashboardReleaseQuery,
  DashboardReleaseStatusDocument,
} from '../../generated/graphql.ts';
import { showError } from '../../lib/alerts.ts';
import type { Api } from '../../lib/api.ts';
import { h, replaceChildren } from '../../lib/dom.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { showNotFound } from '../../lib/not-found.ts';
import { startPage } from '../../lib/page.ts';
import { draftChip, statusChip } from '../../lib/status-chip.ts';
import { addStoresSection } from './add-stores.ts';
import { followRelease, liveRegion } from './live-updates.ts';
import { StoreTable } from './store-table.ts';
import { summarySection, titleOf, tracksSection } from './summary.ts';
import { takeDownSection } from './take-down.ts';

type Status = DashboardReleaseQuery['releaseStatus'];

/**
 * /dashboard/releases/:id: the release's facts, tracks and cover; where it stands in each store, live
 * from `releaseEvents`; adding stores and taking it down. An unknown id, or another account's, is
 * "Not found" (the API answers both alike).
 */
startPage(async ({ api, root, boot }) => {
  const releaseId = boot.params.id ?? '';
  let data: DashboardReleaseQuery;
  try {
    data = await api.query(DashboardReleaseDocument, { id: releaseId });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    showNotFound(root, 'release', { href: '/dashboard/releases', label: 'Your releases' });
    return;
  }
  const { release } = data;
  const title = titleOf(release);
  const heading = document.querySelector('main h1');
  if (heading) heading.textContent = title;
  document.title = `${title} · Tributary`;

  const chip = h('span', { id: 'release-status' });
  const showStatus = (status: AggregateStatus) => replaceChildren(chip, statusChip(status));
  if (release.status === 'DRAFT') replaceChildren(chip, draftChip());
  else showStatus(data.releaseStatus.aggregateStatus);

  const sections: HTMLElement[] = [summarySection(release, chip), tracksSection(release)];
  if (release.status !== 'SUBMITTED') {
    sections.push(
      h(
        'section',
        { 'aria-labelledby': 'stores-heading' },
        h('h2', { id: 'stores-heading' }, 'Stores'),
        h('p', { class: 'muted' }, 'This release is a draft: no store has it until it is submitted.'),
      ),
    );
    replaceChildren(root, sections);
    return;
  }
  replaceChildren(root, sections, storesView(api, releaseId, title, data, showStatus, boot));
});

/** The store table, live, and (except for the sandbox's sample release) adding stores and taking down. */
function storesView(
  api: Api,
  releaseId: string,
  title: string,
  data: DashboardReleaseQuery,
  showStatus: (status: AggregateStatus) => void,
  boot: { token: string; graphqlPath: string },
): HTMLElement[] {
  const table = new StoreTable();
  const live = liveRegion();
  const fallback = h('p', { class: 'muted', id: 'stores-fallback', hidden: true });
  const noStores = h('p', { class: 'muted' }, 'No store has been queued yet.');
  const reread = async () => {
    const { releaseStatus } = await api.query(DashboardReleaseStatusDocument, { releaseId });
    showDelivery(releaseStatus);
  };
  const add = addStoresSection({
    api,
    releaseId,
    title,
    catalog: data.distributionStores.stores,
    onDone: reread,
  });
  const takeDown = takeDownSection({ api, releaseId, title, onDone: reread });
  const actionsFollow = () => {
    table.element.hidden = table.rows.length === 0;
    noStores.hidden = table.rows.length > 0;
    add.show(table.rows);
    takeDown.show(table.rows);
  };
  function showDelivery(status: Status) {
    showStatus(status.aggregateStatus);
    fallback.hidden = !status.fallback;
    fallback.textContent = status.fallback
      ? `The distributor could not be reached: these are the last known statuses. ${status.fallbackReason ?? ''}`
      : '';
    if (table.set(status.stores).length > 0) actionsFollow();
  }
  showDelivery(data.releaseStatus);
  followRelease(
    { token: boot.token, path: boot.graphqlPath, releaseId },
    {
      onStores: (rows, status) => {
        showStatus(status);
        const changed = table.set(rows);
        if (changed.length === 0) return;
        live.announce(changed);
        actionsFollow();
      },
      onResync: () => void reread().catch(showError),
      onStopped: (text) => live.say(text),
    },
  );
  const stores = h(
    'section',
    { 'aria-labelledby': 'stores-heading' },
    h('h2', { id: 'stores-heading' }, 'Stores'),
    fallback,
    table.element,
    noStores,
    live.element,
  );
  actionsFollow();
  if (data.release.sandboxSample)
    return [
      stores,
      h(
        'p',
        { class: 'muted' },
        'This is the sandbox’s sample release: it cannot be sent to more stores or taken down.',
      ),
    ];
  return [stores, add.element, takeDown.element];
}
