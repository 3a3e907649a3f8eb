import { defineConfig } from 'vitest/config';

/**
 * Test taxonomy (CONVENTIONS.md): `*.test.ts` pure and fast; `*.int.test.ts` against real Postgres
 * (migrations applied once per run by the global setup); `*.sync.test.ts` real Hocuspocus servers.
 * End-to-end tests run in Playwright (tests/e2e), not here.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{shared,api-server,sync-server,client,sdk-web}/src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts', '**/*.sync.test.ts', '**/node_modules/**'],
          // Pure tests share each worker's module cache instead of loading every module again per
          // file: a third of the CPU time (the suite's budget is 15 minutes on two cores). A test
          // that leans on module state it did not set up itself is a defect this would show.
          isolate: false,
          // Property tests run hundreds of cases; on a loaded two-core machine 5 s (the default) is
          // not enough for some (a timeout is not a result: nothing here asserts on time).
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{api-server,sync-server}/src/**/*.int.test.ts', 'tests/integration/**/*.int.test.ts'],
          globalSetup: ['api-server/src/testing/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'sync',
          include: ['sync-server/src/**/*.sync.test.ts'],
          globalSetup: ['api-server/src/testing/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
