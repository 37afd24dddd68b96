import { h, replaceChildren } from './dom.ts';

/**
 * The page's "not found" view: for an id in the URL that is unknown or another account's (the API
 * answers both alike, so the page says nothing more). The heading says it, the title too.
 */
export function showNotFound(
  root: HTMLElement,
  what = 'page',
  back = { href: '/dashboard', label: 'Dashboard' },
): void {
  const heading = document.querySelector('main h1');
  if (heading) heading.textContent = 'Not found';
  document.title = 'Not found · Tributary';
  replaceChildren(
    root,
    h('p', { id: 'not-found' }, `This ${what} does not exist, or it is not yours.`),
    h('p', {}, h('a', { href: back.href }, back.label)),
  );
}
