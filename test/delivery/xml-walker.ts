/**
 * A minimal well-formedness check: one root, every opened tag closed in order, attribute values quoted,
 * no raw `<` or stray `&` in text. Returns the element paths seen (for assertions) or throws.
 */
export function walkXml(document: string): { paths: string[]; texts: Map<string, string[]> } {
  const body = document.replace(/^<\?xml [^?]*\?>\s*/, '');
  const token = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  const stack: string[] = [];
  const paths: string[] = [];
  const texts = new Map<string, string[]>();
  let roots = 0;
  let index = 0;
  while (index < body.length) {
    token.lastIndex = index;
    const match = token.exec(body);
    if (!match) throw new Error(`malformed XML near: ${body.slice(index, index + 60)}`);
    index = token.lastIndex;
    const [, closing, name, , selfClosing, text] = match;
    if (text !== undefined) {
      if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`unescaped & in: ${text}`);
      if (text.trim() && stack.length === 0) throw new Error(`text outside the root: ${text}`);
      if (text.trim()) {
        const path = stack.join('/');
        texts.set(path, [...(texts.get(path) ?? []), unescapeXml(text)]);
      }
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
      continue;
    }
    if (stack.length === 0) roots += 1;
    stack.push(name!);
    paths.push(stack.join('/'));
    if (selfClosing) stack.pop();
  }
  if (stack.length > 0) throw new Error(`unclosed: ${stack.join('/')}`);
  if (roots !== 1) throw new Error(`expected one root element, found ${roots}`);
  return { paths, texts };
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
