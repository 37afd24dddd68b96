import type { StreamsReleaseChoicesQuery } from '../../generated/graphql.ts';
import { h } from '../../lib/dom.ts';
import { releaseLabel } from './figures.ts';
import { DEFAULT_DAYS, PRESETS, presetWindow, type StreamsQuery, windowOf } from './range.ts';

export interface Controls {
  element: HTMLFormElement;
  /** Shows a query in the form: its release and the window the API answered for it. */
  show(query: { release: { id: string; label: string } | null; from: string; to: string }): void;
  /** Marks the date fields an error names (`fromDate`, `toDate`) invalid, and clears the others. */
  markInvalid(paths: readonly string[]): void;
}

type Choices = StreamsReleaseChoicesQuery['releasesConnection'];

/**
 * What to show: a release (or the whole account), the first and last day, Show; and the presets (7,
 * 30, 90 days, a year, each ending yesterday), which apply at once. `apply` gets the query the form asks.
 */
export function createControls(choices: Choices, apply: (query: StreamsQuery) => void): Controls {
  const release = h(
    'select',
    { name: 'release', id: 'streams-release' },
    h('option', { value: '' }, 'All releases'),
    choices.edges.map(({ node }) => h('option', { value: node.id }, releaseLabel(node))),
  );
  const from = h('input', { type: 'date', name: 'from', id: 'streams-from' });
  const to = h('input', { type: 'date', name: 'to', id: 'streams-to' });
  const presets = PRESETS.map((preset) =>
    h(
      'button',
      { type: 'button', class: 'secondary', 'aria-pressed': 'false', 'data-days': preset.days },
      preset.label,
    ),
  );
  const form = h(
    'form',
    { class: 'filters', id: 'streams-filters', 'aria-label': 'Which streams' },
    h('label', {}, 'Release', release),
    h('label', {}, 'From', from),
    h('label', {}, 'To', to),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Show')),
    h('div', { class: 'presets actions', role: 'group', 'aria-label': 'Periods ending yesterday' }, presets),
    choices.pageInfo.hasNextPage &&
      h(
        'p',
        { class: 'muted' },
        'The list holds your 100 newest releases; every release’s page links to its streams.',
      ),
  );
  const asked = (): StreamsQuery => ({
    release: release.value || null,
    ...windowOf(from.value || null, to.value || null),
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply(asked());
  });
  for (const [index, button] of presets.entries()) {
    button.addEventListener('click', () => {
      const window = presetWindow(PRESETS[index]?.days ?? DEFAULT_DAYS);
      from.value = window.from;
      to.value = window.to;
      apply(asked());
    });
  }

  return {
    element: form,
    show(query) {
      if (query.release && ![...release.options].some((option) => option.value === query.release?.id))
        release.append(h('option', { value: query.release.id }, query.release.label));
      release.value = query.release?.id ?? '';
      from.value = query.from;
      to.value = query.to;
      PRESETS.forEach((preset, index) => {
        const window = presetWindow(preset.days);
        const pressed = window.from === query.from && window.to === query.to;
        presets[index]?.setAttribute('aria-pressed', String(pressed));
      });
    },
    markInvalid(paths) {
      for (const [input, path] of [
        [from, 'fromDate'],
        [to, 'toDate'],
      ] as const) {
        if (paths.includes(path)) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    },
  };
}
