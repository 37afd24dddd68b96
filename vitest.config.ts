import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'];
/**
 * Files that replace a module with `vi.mock`: they need modules of their own, so they run isolated
 * (and need no database, so no global setup). Every other file shares its worker's modules.
 */
const ISOLATED = ['test/platform/storage/local-disk-exdev.test.ts'];

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry (as do the Pothos and yoga packages); vite would pick the
    // .mjs one for our sources, and two graphql module instances cannot share a schema.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          // The client package's tests start the real app with test/support, so they run here too.
          include: TESTS,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          globalSetup: ['test/support/global-setup.ts'],
          // A worker imports the app once and runs file after file on it: each file still starts its
          // own app on its own database (test/support), and evaluating the app's modules again for each
          // of 200 files took more than half of the run (docs/decisions.md, "Tests").
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
