import { StreamsReleaseChoicesDocument } from '../../generated/graphql.ts';
import { clearError, showError, showNotice } from '../../lib/alerts.ts';
import { h, replaceChildren } from '../../lib/dom.ts';
import { ApiError, NotFoundError } from '../../lib/errors.ts';
import { showNotFound } from '../../lib/not-found.ts';
import { startPage } from '../../lib/page.ts';
import { barsSection } from './bars.ts';
import { createControls } from './controls.ts';
import { type Figures, readFigures } from './figures.ts';
import { kpisSection } from './kpis.ts';
import { formatDay, queryOfUrl, urlOf } from './range.ts';
import { type SeriesChart, seriesSection } from './series-chart.ts';

const BACK = { href: '/dashboard/streams', label: 'Streams of all your releases' };

const rangeOf = (figures: Figures) =>
  `${formatDay(figures.fromDate)} to ${formatDay(figures.toDate)} (${figures.days.length} days)`;

/**
 * /dashboard/streams: the account's streams, or one release's (`?release=<id>`), over a window
 * (`?from=&to=`, default the last 30 days): key figures, streams per day by store (uPlot), top stores
 * and top countries (bars), each with its numbers as a table. The form and the presets change the URL
 * (history), so reload, Back and a shared link show the same figures.
 */
startPage(async ({ api, root }) => {
  const heading = document.querySelector('main h1')?.textContent ?? 'Streams';
  const title = document.title;
  const first = queryOfUrl(location.search);
  const firstFigures = readFigures(api, first);
  firstFigures.catch(() => {}); // handled by show() below, once the form is built
  const { releasesConnection } = await api.query(StreamsReleaseChoicesDocument);

  const controls = createControls(releasesConnection, (query) => {
    const url = urlOf(query);
    if (url === `${location.pathname}${location.search}`) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    void show(readFigures(api, query), true);
  });
  const scope = h('p', { class: 'scope', id: 'streams-scope' });
  const results = h('div', { id: 'streams-results' });
  const view = [controls.element, scope, results];
  replaceChildren(root, view);

  let shown = 0;
  let chart: SeriesChart | null = null;
  async function show(pending: Promise<Figures>, announce: boolean) {
    const mine = ++shown;
    results.setAttribute('aria-busy', 'true');
    try {
      const figures = await pending;
      if (mine !== shown) return;
      clearError();
      controls.markInvalid([]);
      if (!root.contains(controls.element)) {
        // Back from a release that was not found.
        document.querySelector('main h1')?.replaceChildren(heading);
        document.title = title;
        replaceChildren(root, view);
      }
      controls.show({ release: figures.release, from: figures.fromDate, to: figures.toDate });
      const range = rangeOf(figures);
      const subject = figures.release ? figures.release.label : 'All your releases';
      scope.textContent = `${subject}, ${range}.`;
      chart?.destroy();
      chart = seriesSection(figures, range);
      replaceChildren(
        results,
        kpisSection(figures),
        chart.element,
        barsSection({
          id: 'top-stores',
          heading: 'Top stores',
          caption: `Streams by store, most first, ${range}`,
          nameColumn: 'Store',
          rows: figures.stores,
          totalStreams: figures.totalStreams,
        }),
        barsSection({
          id: 'top-countries',
          heading: 'Top countries',
          caption: `Streams by country, most first, ${range}`,
          nameColumn: 'Country',
          rows: figures.countries,
          totalStreams: figures.totalStreams,
        }),
      );
      chart.mount();
      if (announce) showNotice(`Showing ${subject}, ${range}.`);
    } catch (error) {
      if (mine !== shown) return;
      chart?.destroy();
      chart = null;
      if (error instanceof NotFoundError) {
        showNotFound(root, 'release', BACK);
        return;
      }
      scope.textContent = '';
      replaceChildren(results);
      controls.markInvalid(error instanceof ApiError ? error.details.map((detail) => detail.path) : []);
      showError(error);
    } finally {
      if (mine === shown) results.removeAttribute('aria-busy');
    }
  }

  window.addEventListener('popstate', () => {
    const query = queryOfUrl(location.search);
    void show(readFigures(api, query), true);
  });
  await show(firstFigures, false);
});
