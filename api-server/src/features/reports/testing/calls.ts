/** The report calls the integration tests make (reports.int.test.ts, reportHostKeys.int.test.ts). */
import { randomBytes } from 'node:crypto';
import type { Report, ReportRun } from '@gd/shared';
import type { TestClient } from '../../../testing/harness.ts';

/** An account's client and the app its reports belong to. */
export interface ReportOwner { client: TestClient; app: { id: string } }

/** A daily explore report of product views by category over the last 7 days, e-mailed unless `over` says otherwise. */
export const exploreInput = (over: Record<string, unknown> = {}) => ({
  name: `Views ${randomBytes(3).toString('hex')}`, kind: 'explore', query: { event: 'product_view', metric: 'events', breakdown: 'property', property: 'category' },
  range: 'last7Days', schedule: { frequency: 'daily', hour: 7, minute: 0 }, format: 'csv',
  target: { type: 'email', recipients: ['team@acme.example.com', 'boss@acme.example.com'] }, ...over,
});

export const createReport = async (f: ReportOwner, input: Record<string, unknown>) => (await f.client.ok<{ report: Report }>('createReport', input, { appId: f.app.id })).report;
export const runNow = async (f: ReportOwner, reportId: string) => (await f.client.ok<{ run: ReportRun }>('runReportNow', undefined, { appId: f.app.id, reportId })).run;

/** Waits until the run is no longer processing (the server's job runner runs it), or until `until` holds. */
export async function settled(f: ReportOwner, reportId: string, runId: string, until: (r: ReportRun) => boolean = (r) => r.status !== 'processing'): Promise<ReportRun> {
  for (let i = 0; i < 600; i++) {
    const { runs } = await f.client.ok<{ runs: ReportRun[] }>('listReportRuns', undefined, { appId: f.app.id, reportId });
    const run = runs.find((r) => r.id === runId);
    if (run && until(run)) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not settle`);
}
