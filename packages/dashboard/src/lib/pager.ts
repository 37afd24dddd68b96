import { h } from './dom.ts';

/** A Relay connection's pageInfo, as the API's keyset connections answer it. */
export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/** The arguments of one page: forward (`first`, `after`) or backward (`last`, `before`). */
export type PageRequest = { first: number; after?: string } | { last: number; before: string };

export interface Pager {
  /** The pager's navigation (Previous, the page's number, Next), to place under its list. */
  element: HTMLElement;
  /** Loads the first page. */
  start(): Promise<void>;
  /** Loads the page shown again (after the list changed). */
  reload(): Promise<void>;
}

/**
 * Next and previous over a keyset connection: Next asks for the `size` rows after the page's last
 * cursor, Previous for the `size` rows before its first, so pages never shift while rows are added.
 * `load` fetches and renders one page and answers its pageInfo; a failed load throws to the caller of
 * start(), or, after a click, to `onError`.
 */
export function createPager(options: {
  label: string;
  size: number;
  load: (request: PageRequest) => Promise<PageInfo>;
  onError: (error: unknown) => void;
}): Pager {
  const previous = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Previous');
  const next = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Next');
  const position = h('span', { class: 'muted', 'aria-live': 'polite' });
  const element = h('nav', { class: 'pager', 'aria-label': options.label }, previous, position, next);
  let info: PageInfo | null = null;
  let page = 1;
  let current: PageRequest = { first: options.size };

  async function show(request: PageRequest, number: number, clicked?: HTMLButtonElement) {
    previous.disabled = true;
    next.disabled = true;
    element.setAttribute('aria-busy', 'true');
    try {
      info = await options.load(request);
      current = request;
      page = number;
    } finally {
      element.removeAttribute('aria-busy');
      previous.disabled = !info?.hasPreviousPage || !info.startCursor;
      next.disabled = !info?.hasNextPage || !info.endCursor;
      position.textContent = `Page ${page}`;
      // Focus stays on the pager: on the button pressed, or the other one once this end is reached.
      if (clicked) (clicked.disabled ? (clicked === next ? previous : next) : clicked).focus();
    }
  }

  const onClick = (button: HTMLButtonElement, request: () => PageRequest | null, step: number) =>
    button.addEventListener('click', () => {
      const wanted = request();
      if (wanted) show(wanted, page + step, button).catch(options.onError);
    });
  onClick(next, () => (info?.endCursor ? { first: options.size, after: info.endCursor } : null), 1);
  onClick(previous, () => (info?.startCursor ? { last: options.size, before: info.startCursor } : null), -1);

  return {
    element,
    start: () => show({ first: options.size }, 1),
    reload: () => show(current, page),
  };
}
