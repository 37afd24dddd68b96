import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesUnder } from '../support/source-files.ts';

const DOMAINS = path.resolve('src/domains');

const domainOf = (file: string) => path.relative(DOMAINS, file).split(path.sep)[0]!;

/** Which domain imports which (type-only imports count: they tie the domains together all the same). */
function domainGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder(DOMAINS)) {
    const from = domainOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      if (!target.startsWith(DOMAINS + path.sep)) continue;
      const to = domainOf(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const visit = (node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) found.push([...trail.slice(at), next].join(' → '));
      else visit(next, [...trail, next]);
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return [...new Set(found)];
}

it('no import cycle between domains (a domain depends on others in one direction only)', () => {
  const graph = domainGraph();
  expect(graph.get('releases')?.has('delivery') ?? false).toBe(false);
  expect(cycles(graph)).toEqual([]);
});
