/** A value met while walking a JSON tree: its caller-style path (`tracks[0].title`), key and depth. */
export interface JsonNode {
  readonly path: string;
  /** The object key it sits under (the nearest one, for array items), '' at the root. */
  readonly key: string;
  readonly depth: number;
  readonly value: unknown;
}

/** A node whose path is spelled out only when read: most walks read it only where they stop. */
class WalkedNode implements JsonNode {
  #path: string | undefined;
  readonly parent: WalkedNode | null;
  /** The array index or object key under the parent; the root's path at the root. */
  readonly segment: string | number;
  readonly key: string;
  readonly depth: number;
  readonly value: unknown;

  constructor(parent: WalkedNode | null, segment: string | number, key: string, value: unknown) {
    this.parent = parent;
    this.segment = segment;
    this.key = key;
    this.depth = parent ? parent.depth + 1 : 0;
    this.value = value;
  }

  get path(): string {
    if (this.#path === undefined) {
      const { parent, segment } = this;
      if (!parent) this.#path = String(segment);
      else if (typeof segment === 'number') this.#path = `${parent.path}[${segment}]`;
      else this.#path = parent.path ? `${parent.path}.${segment}` : segment;
    }
    return this.#path;
  }
}

/**
 * Visits every value of a JSON tree, depth-first in document order, without recursion (a hostile body
 * nested thousands deep must not exhaust the stack). `visit` returns true to stop the walk.
 */
export function walkJson(root: unknown, visit: (node: JsonNode) => boolean | undefined, rootPath = ''): void {
  const stack: WalkedNode[] = [new WalkedNode(null, rootPath, rootPath, root)];
  while (stack.length > 0) {
    const node = stack.pop() as WalkedNode;
    if (visit(node)) return;
    const { value } = node;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(new WalkedNode(node, i, node.key, value[i]));
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push(new WalkedNode(node, key, key, (value as Record<string, unknown>)[key]));
      }
    }
  }
}
