import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, expect, it } from 'vitest';

const CONFIG = path.resolve('.dependency-cruiser.cjs');
/** What `npm run lint:imports` cruises. */
const TREES = [
  'src',
  'schema',
  'facades',
  'test',
  'bench',
  'packages/client/src',
  'packages/client/test',
  'packages/client/scripts',
  'packages/cli/src',
  'packages/cli/test',
  'packages/dashboard/src',
  'packages/dashboard/scripts',
];
const CRUISE_TIMEOUT_MS = 180_000;

async function cruiseTrees(baseDir: string, trees: string[]): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(trees, { ...options, baseDir });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a cruise result');
  return output;
}

const violationsOf = (result: ICruiseResult) =>
  result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

/**
 * A small tree with one violation of each rule, and beside them imports the rules allow (a domain on
 * the platform, schema and a worker on a domain's front door, a domain on another's front door, the
 * composition on the delivery adapters' door, a facade on the platform, an adapter on the delivery core,
 * a test inside a domain).
 */
const FIXTURE: Record<string, string> = {
  'src/platform/ok.ts': 'export const ok = 1;\n',
  'src/platform/reads-app.ts': "import { entities } from '../entities.ts';\nexport const all = entities;\n",
  'src/platform/reads-domain-type.ts':
    "import type { One } from '../domains/a/index.ts';\nexport type Again = One;\n",
  'src/platform/reads-test.ts': "import { helper } from '../../test/helper.ts';\nexport const h = helper;\n",
  'src/platform/reads-nothing.ts': "import { gone } from './gone.ts';\nexport const g = gone;\n",
  // A cycle through type-only imports, as distributor.ts and recorded-delivery.ts had.
  'src/domains/a/one.ts':
    "import type { Two } from './two.ts';\nimport { ok } from '../../platform/ok.ts';\nexport interface One { two?: Two }\nexport const one = ok;\n",
  'src/domains/a/two.ts': "import type { One } from './one.ts';\nexport interface Two { one?: One }\n",
  'src/domains/a/reads-schema.ts':
    "import { field } from '../../../schema/field.ts';\nexport const f = field;\n",
  'src/domains/a/reads-worker.ts': "import { run } from '../../workers/run.ts';\nexport const r = run;\n",
  'src/domains/a/index.ts':
    "export { type One, one } from './one.ts';\nexport type { Two } from './two.ts';\n",
  'src/domains/a/reads-own-door.ts': "import { one } from './index.ts';\nexport const o = one;\n",
  // Another domain: through a's front door, and once around it.
  'src/domains/b/reads-a.ts':
    "import { one } from '../a/index.ts';\nimport type { Two } from '../a/two.ts';\nexport const b = one;\nexport type T = Two;\n",
  'src/domains/delivery/store-adapter.ts': 'export interface StoreAdapter { name: string }\n',
  'src/domains/delivery/core.ts':
    "import { adapter } from './adapters/x/adapter.ts';\nexport const a = adapter;\n",
  'src/domains/delivery/adapters/x/adapter.ts':
    "import type { StoreAdapter } from '../../store-adapter.ts';\nexport const adapter: StoreAdapter = { name: 'x' };\n",
  'src/domains/delivery/adapters/index.ts': "export { adapter } from './x/adapter.ts';\n",
  // Entities: the list imports entity files directly; an entity imports another domain's entity file,
  // but neither goes through a front door (which would load the domain with the ORM's metadata).
  'src/domains/a/thing.entity.ts':
    "import { other } from '../b/other.entity.ts';\nimport type { Two } from './two.ts';\nexport const thing: [number, Two?] = [other];\n",
  'src/domains/b/other.entity.ts': "import { one } from '../a/index.ts';\nexport const other = one;\n",
  'src/entities.ts':
    "import { thing } from './domains/a/thing.entity.ts';\nimport { adapter } from './domains/delivery/adapters/index.ts';\nexport const entities = [thing, adapter];\n",
  'src/workers/run.ts': "import { one } from '../domains/a/index.ts';\nexport const run = one;\n",
  'schema/field.ts':
    "import { one } from '../src/domains/a/index.ts';\nimport { route } from '../facades/route.ts';\nexport const field = [one, route];\n",
  'schema/reads-inside.ts': "import type { Two } from '../src/domains/a/two.ts';\nexport type T = Two;\n",
  'facades/route.ts':
    "import { ok } from '../src/platform/ok.ts';\nimport type { Two } from '../src/domains/a/index.ts';\nexport const route = ok;\nexport type T = Two;\n",
  'test/helper.ts': 'export const helper = 1;\n',
  // Tests may reach inside a domain: they test its internals.
  'test/reads-inside.ts': "import type { Two } from '../src/domains/a/two.ts';\nexport type T = Two;\n",
  // The client package stands alone; its tests start the service with test/'s support.
  'packages/client/src/reads-service.ts':
    "import { ok } from '../../../src/platform/ok.ts';\nexport const o = ok;\n",
  'packages/client/test/starts-service.ts':
    "import { helper } from '../../../test/helper.ts';\nimport { o } from '../src/reads-service.ts';\nexport const s = [helper, o];\n",
  // The CLI talks to the service through the client only; its tests start the service too.
  'packages/cli/src/reads-service.ts':
    "import { ok } from '../../../src/platform/ok.ts';\nexport const o = ok;\n",
  'packages/cli/test/starts-service.ts':
    "import { helper } from '../../../test/helper.ts';\nimport { o } from '../src/reads-service.ts';\nexport const s = [helper, o];\n",
  // The dashboard runs in the browser: none of the service, no Node; the service never imports it.
  'packages/dashboard/src/reads-service.ts':
    "import { ok } from '../../../src/platform/ok.ts';\nexport const o = ok;\n",
  'packages/dashboard/src/reads-node.ts': "import { hash } from 'node:crypto';\nexport const h = hash;\n",
  'packages/dashboard/src/ok.ts': 'export const page = 1;\n',
  'facades/reads-dashboard.ts':
    "import { page } from '../packages/dashboard/src/ok.ts';\nexport const p = page;\n",
};

const scratch = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it(
  'each import rule reports its violation, type-only imports included, and nothing the rules allow',
  async () => {
    for (const [file, text] of Object.entries(FIXTURE)) {
      mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      writeFileSync(path.join(scratch, file), text);
    }
    const result = await cruiseTrees(scratch, [
      'src',
      'schema',
      'facades',
      'test',
      'packages/client',
      'packages/cli',
      'packages/dashboard',
    ]);
    expect(violationsOf(result)).toEqual(
      [
        'cli-on-the-client: packages/cli/src/reads-service.ts → src/platform/ok.ts',
        'dashboard-has-no-node: packages/dashboard/src/reads-node.ts → crypto',
        'dashboard-knows-the-api-only: packages/dashboard/src/reads-service.ts → src/platform/ok.ts',
        'service-imports-no-dashboard: facades/reads-dashboard.ts → packages/dashboard/src/ok.ts',
        'client-stands-alone: packages/client/src/reads-service.ts → src/platform/ok.ts',
        'delivery-core-imports-no-adapter: src/domains/delivery/core.ts → src/domains/delivery/adapters/x/adapter.ts',
        'domain-files-skip-their-own-front-door: src/domains/a/reads-own-door.ts → src/domains/a/index.ts',
        'domains-open-by-their-front-door: schema/reads-inside.ts → src/domains/a/two.ts',
        'domains-open-by-their-front-door: src/domains/b/reads-a.ts → src/domains/a/two.ts',
        'domains-stand-on-platform-only: src/domains/a/reads-worker.ts → src/workers/run.ts',
        'entities-stand-alone: src/domains/b/other.entity.ts → src/domains/a/index.ts',
        'entities-stand-alone: src/entities.ts → src/domains/delivery/adapters/index.ts',
        'facades-reach-domains-through-graphql: facades/route.ts → src/domains/a/index.ts',
        'imports-resolve: src/platform/reads-nothing.ts → ./gone.ts',
        // A cycle is reported once, at the edge that closes it.
        'no-circular: src/domains/a/one.ts → src/domains/a/two.ts',
        'platform-is-a-leaf: src/platform/reads-app.ts → src/entities.ts',
        'platform-is-a-leaf: src/platform/reads-domain-type.ts → src/domains/a/index.ts',
        'platform-is-a-leaf: src/platform/reads-test.ts → test/helper.ts',
        'production-imports-no-tests: src/platform/reads-test.ts → test/helper.ts',
        'schema-imports-no-facade: schema/field.ts → facades/route.ts',
        'src-knows-no-transport: src/domains/a/reads-schema.ts → schema/field.ts',
      ].sort(),
    );
    // Every rule of the configuration was shown to fire.
    const options = await extractDepcruiseOptions(CONFIG);
    const rules = (options.ruleSet?.forbidden ?? []).map((rule) => rule.name);
    expect(new Set(result.summary.violations.map((v) => v.rule.name))).toEqual(new Set(rules));
  },
  CRUISE_TIMEOUT_MS,
);

it(
  'the tree as it is breaks no import rule, on a graph that has its type-only edges',
  async () => {
    const result = await cruiseTrees(process.cwd(), TREES);
    expect(violationsOf(result)).toEqual([]);
    // Not vacuous: the whole tree was read, with its .ts specifiers resolved and type-only imports seen.
    const edges = result.modules.flatMap((module) =>
      module.dependencies.map((dependency) => ({ from: module.source, ...dependency })),
    );
    expect(result.summary.totalCruised).toBeGreaterThan(700);
    expect(
      edges.some((e) => e.from.startsWith('src/domains/') && e.resolved.startsWith('src/platform/')),
    ).toBe(true);
    expect(
      edges.some(
        (e) =>
          e.from === 'src/domains/delivery/recorded-delivery.ts' &&
          e.resolved === 'src/domains/delivery/distributor.ts' &&
          e.dependencyTypes.includes('type-only'),
      ),
    ).toBe(true);
  },
  CRUISE_TIMEOUT_MS,
);
