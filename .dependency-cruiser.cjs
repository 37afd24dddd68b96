/**
 * Import rules (`npm run lint:imports`, part of `npm run lint`): the directions README.md's layout and
 * docs/decisions.md state, checked on the resolved import graph of src/, schema/, facades/, test/,
 * bench/, the client package (packages/client), the CLI (packages/cli) and the dashboard's browser code
 * (packages/dashboard). Type-only imports are edges like any other: they tie files together all the same.
 * test/architecture/import-rules.test.ts proves each rule catches a violation.
 * Cycles between whole domains (a folder and everything under it) are checked in
 * test/architecture/domain-cycles.test.ts: a rule here sees one file or one folder at a time.
 */
const OUTSIDE_PLATFORM = { path: '^(src|schema|facades|test|bench)/', pathNot: '^src/platform/' };

/** The ORM's entity definitions and src/entities.ts, the list of them (see entities-stand-alone). */
const ENTITY_FILES = '^src/(?:domains/[^/]+/.*\\.entity\\.ts|entities\\.ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files, type-only imports included: move what both sides need apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-is-a-leaf',
      comment:
        'src/platform is infrastructure the app is built on: it imports nothing of the app (domains, ' +
        'src/*.ts, migrations, workers, cli, schema, facades). What it needs of the app, the caller hands ' +
        'it (src/app-database.ts binds the entities, migrations and queues).',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: OUTSIDE_PLATFORM,
    },
    {
      name: 'src-knows-no-transport',
      comment: 'src/ knows nothing of GraphQL or transports: imports run facades -> schema -> src.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(schema|facades)/' },
    },
    {
      name: 'domains-stand-on-platform-only',
      comment:
        'A domain imports other domains and the platform only, never what composes or runs them ' +
        '(src/*.ts, src/workers, src/cli, src/migrations).',
      severity: 'error',
      from: { path: '^src/domains/' },
      to: { path: '^src/', pathNot: '^src/(domains|platform)/' },
    },
    {
      name: 'domains-open-by-their-front-door',
      comment:
        'Outside a domain (the rest of src/, schema/, facades/, the other domains) code imports the domain ' +
        'through its front door, src/domains/<domain>/index.ts, never one of its files: the index says what ' +
        'the domain offers, and its files can move behind it. The delivery adapters have a door of their ' +
        'own, src/domains/delivery/adapters/index.ts, since the delivery core (its index.ts too) imports ' +
        'no adapter. test/ and bench/ may reach inside: they test internals.',
      severity: 'error',
      from: {
        // $1: the domain the importing file is in; outside src/domains, its top folder (no domain's name).
        path: '^(?:src/domains/|(?=(?:src|schema|facades)/))([^/]+)/',
        // Entity files and the list of them follow entities-stand-alone instead.
        pathNot: ENTITY_FILES,
      },
      to: {
        path: '^src/domains/',
        pathNot: [
          '^src/domains/$1/',
          '^src/domains/[^/]+/index\\.ts$',
          '^src/domains/delivery/adapters/index\\.ts$',
        ],
      },
    },
    {
      name: 'entities-stand-alone',
      comment:
        'An entity file, and src/entities.ts that lists them all, import other entity files (and ' +
        "accounts' owning-account.ts) directly, never a front door or other domain code: loading the ORM's " +
        'metadata (the admin CLI, migrations, every worker at start) must not load every domain with it.',
      severity: 'error',
      // $1: the entity's domain (empty for src/entities.ts, so every domain file is outside it).
      from: { path: ENTITY_FILES.replace('domains/[^/]+/', 'domains/([^/]+)/') },
      to: {
        path: '^src/domains/',
        pathNot: ['^src/domains/$1/', '\\.entity\\.ts$', '^src/domains/accounts/owning-account\\.ts$'],
      },
    },
    {
      name: 'domain-files-skip-their-own-front-door',
      comment:
        "A domain's files import each other directly, never their own index.ts: the index imports them, " +
        'so going through it invites an import cycle (and a variable read before its module has run).',
      severity: 'error',
      from: { path: '^src/domains/([^/]+)/', pathNot: '^src/domains/[^/]+/index\\.ts$' },
      to: { path: '^src/domains/$1/index\\.ts$' },
    },
    {
      name: 'delivery-core-imports-no-adapter',
      comment:
        'The delivery core (the domain outside adapters/, and the worker running its jobs) never imports ' +
        'an adapter: adapters depend on the core (store-adapter.ts), never the reverse.',
      severity: 'error',
      from: {
        path: ['^src/domains/delivery/', '^src/workers/delivery-runner\\.ts$'],
        pathNot: '^src/domains/delivery/adapters/',
      },
      to: { path: '^src/domains/delivery/adapters/' },
    },
    {
      name: 'schema-imports-no-facade',
      comment: 'schema/ never imports facades/: imports run facades -> schema -> src.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^facades/' },
    },
    {
      name: 'facades-reach-domains-through-graphql',
      comment: 'facades/ reach the domain only through GraphQL (schema/execute.ts); src/platform is allowed.',
      severity: 'error',
      from: { path: '^facades/' },
      to: { path: '^src/domains/' },
    },
    {
      name: 'production-imports-no-tests',
      comment: 'src/, schema/ and facades/ never import test/ or bench/.',
      severity: 'error',
      from: { path: '^(src|schema|facades)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'packages/client is published on its own: its source and scripts import none of the service ' +
        '(src/, schema/, facades/, test/, bench/). It knows the service by its contracts only, the ' +
        'OpenAPI document and the printed schema it generates from. Its tests may start the service.',
      severity: 'error',
      from: { path: '^packages/client/(src|scripts)/' },
      to: { path: '^(src|schema|facades|test|bench)/' },
    },
    {
      name: 'cli-on-the-client',
      comment:
        'packages/cli talks to the service through @tributary/client only: its source imports none of ' +
        'the service (src/, schema/, facades/, test/, bench/). Its tests may start the service.',
      severity: 'error',
      from: { path: '^packages/cli/src/' },
      to: { path: '^(src|schema|facades|test|bench)/' },
    },
    {
      name: 'dashboard-knows-the-api-only',
      comment:
        "packages/dashboard/src runs in the browser: it imports none of the service (src/, schema/, " +
        'facades/, test/, bench/) nor the other packages. It knows the service by its public GraphQL API ' +
        'only, through the documents it generates from the printed schema (docs/dashboard.md).',
      severity: 'error',
      from: { path: '^packages/dashboard/src/' },
      to: { path: '^(src|schema|facades|test|bench|packages/(client|cli))/' },
    },
    {
      name: 'dashboard-has-no-node',
      comment: "packages/dashboard/src runs in the browser: Node's built-in modules are not there.",
      severity: 'error',
      from: { path: '^packages/dashboard/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'service-imports-no-dashboard',
      comment:
        'src/, schema/ and facades/ never import the dashboard: the service bundles its sources for the ' +
        'browser and reads its manifest by path (facades/web/dashboard/sources.ts), never runs its code.',
      severity: 'error',
      from: { path: '^(src|schema|facades)/' },
      to: { path: '^packages/dashboard/' },
    },
    {
      name: 'imports-resolve',
      comment: 'An import the cruiser cannot resolve would escape every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API dependency-cruiser can load (it takes typescript < 7), so swc
    // parses the sources. swc reports type-only imports (`import type`, `export type`) as dependencies
    // whatever tsPreCompilationDeps says, which is what no-circular needs.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // The sources import './x.ts' (tsconfig: allowImportingTsExtensions) and packages through their
    // `exports`, resolved the way Node resolves an ES module. tsconfig.json declares no paths or
    // baseUrl, so it has nothing to add to resolution (and reading it would need the TypeScript API).
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['tributary-source', 'node', 'import', 'default'],
      // `typings` last: a types-only package (@graphql-typed-document-node/core) has no JavaScript entry.
      mainFields: ['module', 'main', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
