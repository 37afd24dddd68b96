/** A value met while walking a JSON tree: its caller-style path (`tracks[0].title`), key and depth. */
export interface JsonNode {
  path: string;
  /** The object key it sits under (the nearest one, for array items), '' at the root. */
  key: string;
  depth: number;
  value: unknown;
}

/**
 * Visits every value of a JSON tree, depth-first in document order, without recursion (a hostile body
 * nested thousands deep must not exhaust the stack). `visit` returns true to stop the walk.
 */
export function walkJson(root: unknown, visit: (node: JsonNode) => boolean | undefined, rootPath = ''): void {
  const stack: JsonNode[] = [{ path: rootPath, key: rootPath, depth: 0, value: root }];
  while (stack.length > 0) {
    const node = stack.pop() as JsonNode;
    if (visit(node)) return;
    const { value, path, depth } = node;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ path: `${path}[${i}]`, key: node.key, depth: depth + 1, value: value[i] });
      }
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        stack.push({ path: path ? `${path}.${key}` : key, key, depth: depth + 1, value: item });
      }
    }
  }
}
