import { expect, it } from 'vitest';
import { walkJson } from '../../src/platform/json-walk.ts';

const tree = { release: { title: 'T', artists: [{ name: 'A' }, 'B'] }, tracks: [[1], { 'a.b': null }] };

it('visits every value in document order with its caller-style path, key and depth', () => {
  const seen: [string, string, number][] = [];
  walkJson(tree, (node) => {
    seen.push([node.path, node.key, node.depth]);
    return undefined;
  });
  expect(seen).toEqual([
    ['', '', 0],
    ['release', 'release', 1],
    ['release.title', 'title', 2],
    ['release.artists', 'artists', 2],
    ['release.artists[0]', 'artists', 3],
    ['release.artists[0].name', 'name', 4],
    ['release.artists[1]', 'artists', 3],
    ['tracks', 'tracks', 1],
    ['tracks[0]', 'tracks', 2],
    ['tracks[0][0]', 'tracks', 3],
    ['tracks[1]', 'tracks', 2],
    ['tracks[1].a.b', 'a.b', 3],
  ]);
});

it('starts at a given path, and stops where the visit says', () => {
  const paths: string[] = [];
  walkJson(
    [{ title: 'x' }, { title: 'y' }],
    (node) => {
      paths.push(node.path);
      return node.value === 'x';
    },
    'tracks',
  );
  expect(paths).toEqual(['tracks', 'tracks[0]', 'tracks[0].title']);
});
