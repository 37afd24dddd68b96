/** What h() takes as children: nodes, text (set as text, never parsed as HTML), or nothing. */
export type Child = Node | string | number | null | undefined | false;

type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * An element with attributes and children. Strings become text nodes and attribute values are set as
 * values, so nothing from the API is ever parsed as HTML (no innerHTML anywhere: with the page's CSP,
 * this is what keeps data from becoming markup). `on<event>` attributes take listeners; `true` sets a
 * boolean attribute and `false`, null or undefined leave it out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren(
    ...children
      .flat()
      .filter(
        (child): child is Node | string | number => child !== null && child !== undefined && child !== false,
      )
      .map((child) => (child instanceof Node ? child : String(child))),
  );
}

/** The element with this id, which the page's server-rendered shell always has. */
export function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element;
}
