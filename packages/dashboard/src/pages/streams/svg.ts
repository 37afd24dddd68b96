const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes (values, never markup). Sizes and dashes are presentation attributes,
 * not inline styles, so the page's `style-src 'self'` has nothing to refuse.
 */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: SVGElement[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}
