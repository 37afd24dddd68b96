import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesUnder } from '../support/source-files.ts';

const DELIVERY = path.resolve('src/domains/delivery');
const ADAPTERS = path.join(DELIVERY, 'adapters');
/** The delivery core: the domain outside its adapters, and the worker that runs its jobs. */
const CORE_OUTSIDE_THE_DOMAIN = [path.resolve('src/workers/delivery-runner.ts')];

const inside = (file: string, dir: string) => file.startsWith(dir + path.sep);
const coreFiles = () => [
  ...filesUnder(DELIVERY).filter((file) => !inside(file, ADAPTERS)),
  ...CORE_OUTSIDE_THE_DOMAIN,
];

/**
 * The relative imports of a file (static, re-exports and dynamic; type-only ones count too). That the
 * core imports no adapter is an import rule (.dependency-cruiser.cjs, delivery-core-imports-no-adapter).
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );
}

it('the sandbox lives in its own adapter folder, beside the core it plugs into', () => {
  const sandboxInCore = coreFiles()
    .filter((file) => /sandbox/i.test(path.basename(file)))
    .map((file) => path.relative(DELIVERY, file));
  expect(sandboxInCore).toEqual([]);
  // Nor does the core read the sandbox's table behind its back (its outage is the adapter's query).
  const readingSandboxTables = coreFiles()
    .filter((file) => readFileSync(file, 'utf8').includes('sandbox_controls'))
    .map((file) => path.relative(DELIVERY, file));
  expect(readingSandboxTables).toEqual([]);
  const sandbox = filesUnder(path.join(ADAPTERS, 'sandbox'));
  expect(sandbox.length).toBeGreaterThan(0);
  expect(sandbox.flatMap(importsOf)).toContain(path.join(DELIVERY, 'store-adapter.ts'));
});
