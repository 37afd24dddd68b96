import { h } from '../../lib/dom.ts';
import { formatCount } from '../../lib/format.ts';
import type { Figures } from './figures.ts';
import { dayElement } from './range.ts';

const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A change in percent with its sign in text: "+12.5%", "−3.25%" (a true minus sign), "0%". */
export const formatChange = (pct: number) =>
  `${pct > 0 ? '+' : pct < 0 ? '\u2212' : ''}${decimal.format(Math.abs(pct))}%`;

const figure = (id: string, term: string, ...value: (Node | string)[]) =>
  h('div', {}, h('dt', {}, term), h('dd', { id }, ...value));

/** The headline figures: total, average per day, the change against the period before, freshness. */
export function kpisSection(figures: Figures): HTMLElement {
  const change = figures.periodChangePct === null ? 'No streams then' : formatChange(figures.periodChangePct);
  const freshness = figures.ingestedThrough
    ? h(
        'p',
        { class: 'muted', id: 'kpi-freshness' },
        'Figures through ',
        dayElement(figures.ingestedThrough),
        figures.live ? '; the days after it come straight from the stores’ reports.' : '.',
      )
    : h('p', { class: 'muted', id: 'kpi-freshness' }, 'No daily figures have been gathered yet.');
  return h(
    'section',
    { 'aria-labelledby': 'kpis-heading' },
    h('h2', { id: 'kpis-heading' }, 'Key figures'),
    h(
      'dl',
      { class: 'kpis' },
      figure('kpi-total', 'Total streams', formatCount(figures.totalStreams)),
      figure('kpi-average', 'Average per day', decimal.format(figures.avgDailyStreams)),
      figure('kpi-change', `Change against the ${figures.days.length} days before`, change),
    ),
    freshness,
  );
}
