import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesUnder } from '../support/source-files.ts';

/** The code that runs in production or measures it. */
const ROOTS = ['facades', 'src', 'schema', 'bench'];

/**
 * Underscore names a file may read, and why they are public. Emscripten exports a module's C functions
 * as `_name`: `_chromaprint_new` and `_malloc` are Chromaprint's API, not its internals.
 */
const PUBLIC_UNDERSCORE_NAMES: Record<string, RegExp> = {
  'src/domains/audio/registry/chromaprint.ts': /^_(chromaprint_\w+|malloc|free)$/,
};

const files = () => ROOTS.flatMap((root) => filesUnder(path.resolve(root)));
const relative = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/');

/** Reads of `._name` or `['_name']`: by convention a library's private field, free to change in a patch. */
function underscoreReads(text: string): string[] {
  return [...text.matchAll(/(?:[\w)\]?]\.|\[\s*['"`])(_[A-Za-z]\w*)/g)].map((m) => m[1]!);
}

it('no code reads an underscore-prefixed (private) field of a library object', () => {
  const reads = files().flatMap((file) => {
    const allowed = PUBLIC_UNDERSCORE_NAMES[relative(file)];
    return underscoreReads(readFileSync(file, 'utf8'))
      .filter((name) => !allowed?.test(name))
      .map((name) => `${relative(file)}: ${name}`);
  });
  expect(reads).toEqual([]);
});

it("no code names ws's private connection fields, even to declare them", () => {
  const named = files()
    .filter((file) => /\b_(sender|socket|receiver)\b/.test(readFileSync(file, 'utf8')))
    .map(relative);
  expect(named).toEqual([]);
});

it('the scan sees the code it guards and tells a private read from a public one', () => {
  expect(files().map(relative)).toContain('facades/graphql/fan-out.ts');
  expect(underscoreReads("socket._sender; x?._queue; ws['_socket']; a_b.c; this.name")).toEqual([
    '_sender',
    '_queue',
    '_socket',
  ]);
  expect(underscoreReads('module._malloc(8)')).toEqual(['_malloc']);
  expect(PUBLIC_UNDERSCORE_NAMES['src/domains/audio/registry/chromaprint.ts']?.test('_malloc')).toBe(true);
});
