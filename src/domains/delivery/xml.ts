/** A tiny XML writer: enough for DDEX messages, with escaping done in one place. */
export type XmlChild = XmlNode | string | number | null | undefined | false;

export interface XmlNode {
  name: string;
  attributes: Record<string, string | number | undefined>;
  children: XmlChild[];
}

export function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 forbids outright are dropped rather than escaped.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** An element; `null`, `undefined` and `false` children are left out, so optional parts stay inline. */
export function xml(
  name: string,
  attributes: Record<string, string | number | undefined> | null,
  ...children: XmlChild[]
): XmlNode {
  return { name, attributes: attributes ?? {}, children };
}

/** An element holding text, or nothing at all when the value is missing. */
export function xmlText(name: string, value: string | number | null | undefined): XmlNode | null {
  if (value === null || value === undefined || value === '') return null;
  return xml(name, null, String(value));
}

function isNode(child: XmlChild): child is XmlNode {
  return typeof child === 'object' && child !== null;
}

export function renderXml(node: XmlNode, indent = ''): string {
  const attributes = Object.entries(node.attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  const children = node.children.filter(
    (child): child is XmlNode | string | number => child !== null && child !== undefined && child !== false,
  );
  if (children.length === 0) return `${indent}<${node.name}${attributes}/>`;
  if (children.every((child) => !isNode(child))) {
    return `${indent}<${node.name}${attributes}>${escapeXml(children.join(''))}</${node.name}>`;
  }
  const inner = children
    .map((child) =>
      isNode(child) ? renderXml(child, `${indent}  `) : `${indent}  ${escapeXml(String(child))}`,
    )
    .join('\n');
  return `${indent}<${node.name}${attributes}>\n${inner}\n${indent}</${node.name}>`;
}

export function xmlDocument(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderXml(root)}\n`;
}
