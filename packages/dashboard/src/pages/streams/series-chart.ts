import uPlot from 'uplot';
import { h } from '../../lib/dom.ts';
import { formatCount } from '../../lib/format.ts';
import type { Figures } from './figures.ts';
import { dayElement, formatDay, secondsOf } from './range.ts';
import { svg } from './svg.ts';

/*! uPlot 1.6.32 (bundled here) | Copyright (c) 2025, Leon Sorokin | MIT License | https://github.com/leeoniya/uPlot */

/**
 * Each series' dash (the stylesheet gives its colour, `--series-<n>`, light and dark): colour is never
 * the only way to tell two lines apart. The API sends at most 5 stores and "Other stores".
 */
const DASHES: number[][] = [[], [9, 4], [2, 3], [10, 3, 2, 3], [5, 5], [1, 4]];

const darkScheme = matchMedia('(prefers-color-scheme: dark)');
const cssColour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const heightFor = (width: number) => (width < 480 ? 240 : 320);

/** Whole-number steps for the streams axis (1, 2, 5, 10, 20, 50, …): streams are never fractions. */
const STEPS = Array.from({ length: 13 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

export interface SeriesChart {
  element: HTMLElement;
  /** Draws the chart once the element is in the page (it takes its container's width). */
  mount(): void;
  /** Stops following the container's size and the colour scheme. */
  destroy(): void;
}

/**
 * "Streams per day by store": a uPlot line chart (a series per store of `storeSeries`, the last one the
 * other stores together), a legend that names each store in text with its total (the hovered day's
 * figure while the pointer is on the chart), and the same numbers as a table, per day × store, in a
 * `<details>`. The chart follows its container's width (360 px to desktop) and the colour scheme.
 */
export function seriesSection(figures: Figures, range: string): SeriesChart {
  const heading = h('h2', { id: 'series-heading' }, 'Streams per day by store');
  if (figures.series.length === 0) {
    const element = h(
      'section',
      { 'aria-labelledby': 'series-heading' },
      heading,
      h('p', { class: 'muted' }, 'No streams in this period.'),
    );
    return { element, mount() {}, destroy() {} };
  }
  const values = figures.series.map((series) =>
    h('span', { class: 'legend-value' }, formatCount(series.total)),
  );
  const legendDay = h('span', {}, 'Streams in the period');
  const legend = h(
    'figcaption',
    {},
    h('p', { class: 'muted legend-day' }, legendDay),
    h(
      'ul',
      { class: 'legend', id: 'series-legend' },
      figures.series.map((series, index) =>
        h(
          'li',
          {},
          swatch(index),
          h('span', { class: 'legend-name' }, series.name),
          values[index] as HTMLElement,
        ),
      ),
    ),
  );
  const stores = figures.series.length === 1 ? 'one store' : `${figures.series.length} stores`;
  const container = h('div', {
    class: 'chart',
    id: 'series-chart',
    role: 'img',
    'aria-label': `Line chart of the streams per day at ${stores}, ${range}. The legend names the stores; the table below has every figure.`,
  });
  const element = h(
    'section',
    { 'aria-labelledby': 'series-heading' },
    heading,
    h('figure', { class: 'series' }, container, legend),
    seriesTable(figures, range),
  );

  let plot: uPlot | null = null;
  const showDay = (index: number | null | undefined) => {
    const day = index === null || index === undefined ? null : figures.days[index];
    legendDay.textContent = day ? `On ${formatDay(day)}` : 'Streams in the period';
    figures.series.forEach((series, i) => {
      const value = values[i];
      if (value) value.textContent = formatCount(day ? (series.values[index as number] ?? 0) : series.total);
    });
  };
  const draw = () => {
    plot?.destroy();
    const width = Math.max(container.clientWidth, 240);
    plot = new uPlot(chartOptions(figures, width, showDay), chartData(figures), container);
    // What the chart plots, for a reader of the page's DOM (and its tests): how many series it drew.
    container.dataset.series = String(plot.series.length - 1);
    container.dataset.scheme = darkScheme.matches ? 'dark' : 'light';
  };
  const resized = new ResizeObserver(() => {
    const width = Math.max(container.clientWidth, 240);
    if (plot && plot.width !== width) plot.setSize({ width, height: heightFor(width) });
  });
  return {
    element,
    mount() {
      draw();
      resized.observe(container);
      darkScheme.addEventListener('change', draw);
    },
    destroy() {
      resized.disconnect();
      darkScheme.removeEventListener('change', draw);
      plot?.destroy();
      plot = null;
    },
  };
}

/** A short line in the series' colour and dash, as the chart draws it. */
function swatch(index: number): SVGSVGElement {
  return svg(
    'svg',
    {
      class: `swatch series-${index + 1}`,
      width: 28,
      height: 10,
      viewBox: '0 0 28 10',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    svg('line', {
      x1: 0,
      y1: 5,
      x2: 28,
      y2: 5,
      stroke: 'currentColor',
      'stroke-width': 3,
      'stroke-dasharray': (DASHES[index] ?? []).join(' ') || 'none',
    }),
  );
}

const chartData = (figures: Figures): uPlot.AlignedData => [
  figures.days.map(secondsOf),
  ...figures.series.map((series) => series.values),
];

function chartOptions(
  figures: Figures,
  width: number,
  onCursor: (index: number | null | undefined) => void,
): uPlot.Options {
  const text = cssColour('--fg');
  const line = cssColour('--line');
  const background = cssColour('--bg');
  const axis = { stroke: text, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
  return {
    width,
    height: heightFor(width),
    legend: { show: false },
    cursor: { drag: { x: false, y: false, setScale: false } },
    // The API's days are UTC days: the axis says them so, whatever the reader's time zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
    axes: [
      axis,
      {
        ...axis,
        incrs: STEPS,
        values: (_u, splits) => splits.map((split) => formatCount(split)),
        size: (_u, labels) => 18 + 8 * Math.max(3, ...(labels ?? []).map((label) => label.length)),
      },
    ],
    series: [
      {},
      ...figures.series.map((series, index) => ({
        label: series.name,
        stroke: cssColour(`--series-${index + 1}`),
        width: 2,
        dash: DASHES[index] ?? [],
        points: { fill: background },
      })),
    ],
    hooks: { setCursor: [(u: uPlot) => onCursor(u.cursor.idx)] },
  };
}

/** The chart's numbers: a row per day, a column per series and one for every store together. */
function seriesTable(figures: Figures, range: string): HTMLElement {
  const columns = [...figures.series.map((series) => series.name), 'All stores'];
  return h(
    'details',
    {},
    h('summary', {}, 'The figures per day'),
    h(
      'table',
      { class: 'cards', id: 'series-table' },
      h('caption', {}, `Streams per day by store, ${range}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Day'),
          columns.map((name) => h('th', { scope: 'col', class: 'number' }, name)),
        ),
      ),
      h(
        'tbody',
        {},
        figures.days.map((day, index) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, dayElement(day)),
            figures.series.map((series) =>
              h('td', { class: 'number', 'data-label': series.name }, formatCount(series.values[index] ?? 0)),
            ),
            h('td', { class: 'number', 'data-label': 'All stores' }, formatCount(figures.daily[index] ?? 0)),
          ),
        ),
      ),
    ),
  );
}
