import { DashboardReleasesDocument } from '../../generated/graphql.ts';
import { clearError, showError } from '../../lib/alerts.ts';
import { h, replaceChildren } from '../../lib/dom.ts';
import { startPage } from '../../lib/page.ts';
import { createPager } from '../../lib/pager.ts';
import { COLUMNS, releaseRow } from './release-rows.ts';
import { searchForm, searchInUrl } from './search-form.ts';

const PAGE_SIZE = 20;

/**
 * /dashboard/releases, the dashboard's home: the account's releases newest first, 20 a page, each with
 * its cover, status and stores; a search by title, UPC or ISRC kept in the URL.
 */
startPage(async ({ api, root }) => {
  let search = searchInUrl();
  const body = h('tbody');
  const caption = h('caption', { class: 'visually-hidden' }, 'Releases, newest first');
  const table = h(
    'table',
    { class: 'cards releases', id: 'releases' },
    caption,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    body,
  );
  const empty = h('div', { id: 'releases-empty', hidden: true });
  const pager = createPager({
    label: 'Release pages',
    size: PAGE_SIZE,
    onError: showError,
    load: async (request) => {
      const { releasesConnection } = await api.query(DashboardReleasesDocument, {
        ...request,
        ...(search ? { search } : {}),
      });
      const rows = releasesConnection.edges.map(({ node }) => releaseRow(node));
      replaceChildren(body, rows);
      caption.textContent = search ? `Releases matching “${search}”, newest first` : 'Releases, newest first';
      table.hidden = rows.length === 0;
      pager.element.hidden = rows.length === 0;
      empty.hidden = rows.length > 0;
      replaceChildren(
        empty,
        search
          ? h('p', {}, `No release matches “${search}”. Search by a part of the title, a UPC or an ISRC.`)
          : [
              h('p', {}, 'No releases yet.'),
              h(
                'p',
                { class: 'muted' },
                'Releases you submit through the API, the command line or an agent appear here.',
              ),
            ],
      );
      return releasesConnection.pageInfo;
    },
  });
  const form = searchForm((next) => {
    search = next;
    clearError();
    pager.start().catch(showError);
  });
  replaceChildren(
    root,
    form.element,
    h(
      'section',
      { 'aria-labelledby': 'releases-heading' },
      h('h2', { id: 'releases-heading', class: 'visually-hidden' }, 'Your releases'),
      table,
      empty,
      pager.element,
    ),
  );
  await pager.start();
});
