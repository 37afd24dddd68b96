import { h } from '../../lib/dom.ts';
import { formatCount } from '../../lib/format.ts';
import type { Total } from './figures.ts';
import { svg } from './svg.ts';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/**
 * A bar chart that is a table: a row per store (or country) with its name, a bar, its streams and its
 * share of the window's streams. The bar is an SVG rectangle sized by attribute, hidden from assistive
 * technology: the numbers beside it say the same, so neither colour nor shape is the only way to read it.
 */
export function barsSection(options: {
  id: string;
  heading: string;
  caption: string;
  nameColumn: string;
  rows: Total[];
  totalStreams: number;
}): HTMLElement {
  const largest = Math.max(1, ...options.rows.map((row) => row.total));
  const body =
    options.rows.length === 0
      ? h('p', { class: 'muted' }, 'No streams in this period.')
      : h(
          'table',
          { class: 'bars', id: options.id },
          h('caption', {}, options.caption),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, options.nameColumn),
              h('th', { scope: 'col', class: 'number' }, 'Streams'),
              h('th', { scope: 'col', class: 'number' }, 'Share'),
            ),
          ),
          h(
            'tbody',
            {},
            options.rows.map((row) =>
              h(
                'tr',
                {},
                h(
                  'th',
                  { scope: 'row' },
                  h('span', { class: 'bar-name' }, row.name),
                  svg(
                    'svg',
                    {
                      class: 'bar',
                      viewBox: '0 0 100 8',
                      preserveAspectRatio: 'none',
                      'aria-hidden': 'true',
                      focusable: 'false',
                    },
                    svg('rect', { width: ((row.total / largest) * 100).toFixed(2), height: 8, rx: 1 }),
                  ),
                ),
                h('td', { class: 'number' }, formatCount(row.total)),
                h(
                  'td',
                  { class: 'number' },
                  options.totalStreams > 0 ? percent.format(row.total / options.totalStreams) : '—',
                ),
              ),
            ),
          ),
        );
  return h(
    'section',
    { 'aria-labelledby': `${options.id}-heading` },
    h('h2', { id: `${options.id}-heading` }, options.heading),
    body,
  );
}
