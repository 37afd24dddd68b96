import { h } from '../../lib/dom.ts';

/** The search's parameter in the page's URL: `/dashboard/releases?search=…` (a reload or a link keeps it). */
export const SEARCH_PARAM = 'search';
/** The API's bound on a search text (docs: 1 to 200 characters once trimmed). */
const MAX_LENGTH = 200;

/** The search in the page's URL: trimmed, null when none. */
export function searchInUrl(): string | null {
  return new URLSearchParams(location.search).get(SEARCH_PARAM)?.trim() || null;
}

/**
 * The search box: a GET form of this page (without the script, submitting it loads the page with the
 * search in its URL); with it, a submit puts the search in the URL without a reload and calls `onSearch`.
 * Back and Forward go through earlier searches.
 */
export function searchForm(onSearch: (search: string | null) => void): {
  element: HTMLFormElement;
  show(search: string | null): void;
} {
  const input = h('input', {
    type: 'search',
    id: 'release-search',
    name: SEARCH_PARAM,
    maxlength: MAX_LENGTH,
    autocomplete: 'off',
    'aria-describedby': 'release-search-hint',
  });
  const clear = h('a', { href: location.pathname, hidden: true }, 'Show all releases');
  const element = h(
    'form',
    { role: 'search', class: 'search', method: 'get', action: location.pathname, 'aria-label': 'Releases' },
    h('label', { for: 'release-search' }, 'Search releases'),
    h('p', { id: 'release-search-hint', class: 'muted' }, 'A part of the title, a UPC or an ISRC.'),
    h('div', { class: 'search-row' }, input, h('button', { type: 'submit' }, 'Search')),
    clear,
  );
  const show = (search: string | null) => {
    input.value = search ?? '';
    clear.hidden = search === null;
  };
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const search = input.value.trim() || null;
    const url = search
      ? `${location.pathname}?${new URLSearchParams({ [SEARCH_PARAM]: search })}`
      : location.pathname;
    if (`${location.pathname}${location.search}` !== url) history.pushState(null, '', url);
    show(search);
    onSearch(search);
  });
  clear.addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState(null, '', location.pathname);
    show(null);
    onSearch(null);
    input.focus();
  });
  addEventListener('popstate', () => {
    const search = searchInUrl();
    show(search);
    onSearch(search);
  });
  show(searchInUrl());
  return { element, show };
}
