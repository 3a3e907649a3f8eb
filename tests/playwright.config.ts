import { defineConfig } from '@playwright/test';
import { E2E_BASE_URL } from './support/env.ts';

/**
 * End-to-end tests drive Debian's Chromium against the built app served by the real server on a
 * fresh Postgres database (see support/globalSetup.ts). Named actors get their own browser contexts.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../test-results/e2e-artifacts',
  // A hang guard, not a measure: long tests with two people in two browsers (dashboards, sign-up
  // to app switch) take 40-60 s on a loaded two-core machine (a click waits 1-5 s for the page to
  // settle), so 60 s failed them there; 120 s still ends a hung test in two minutes.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // Two workers, each a browser of its own against the one server: a file's tests run in order on
  // one worker, two files at a time. Every test makes its own accounts, apps, journeys and names
  // (a suffix), or acts in the demo account on rows of its own, so no two files touch the same
  // rows. On two cores this takes the run from about 8.6 to 6.9 minutes (docs/BENCHMARKS.md).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // A focused test would silently skip the others: refused, as a skipped test fails npm test.
  forbidOnly: true,
  globalSetup: './support/globalSetup.ts',
  use: {
    baseURL: E2E_BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    // Kept for a failed test: its actions, network and console, without DOM snapshots, which cost
    // about an eighth of the run's CPU (every action of every test, kept or not); a failure still has
    // its screenshot and the page's ARIA snapshot (error-context.md). E2E_TRACE_SNAPSHOTS=1 records them.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: process.env.E2E_TRACE_SNAPSHOTS === '1', sources: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    },
  },
});
