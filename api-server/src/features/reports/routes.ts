/**
 * Scheduled reports (/main/reports): list, read, create, edit, delete, run now, the runs and a
 * run's file (a `fileRoute`, streamed from the stored chunks).
 *
 * Checks beyond the schema (ReportInput): the kind must be available on this server (funnel and
 * cohort once their analyses exist; acquisition never until issue 16: 10001 on `kind`); an e-mail
 * target's mail provider must be one of the account's (another account's answers like an unknown
 * one: 10004), and without one the account must have an active provider; an SFTP host must be
 * public (the loopback tests allow excepted) and have a password or key (kept on an edit unless the
 * host, port or user changes: then it must be given again). Names are unique per app (30).
 *
 * An SFTP target's host key fingerprint (`hostKeyFingerprint`, column sftp_host_key): given, it is
 * pinned; null forgets it; absent on an edit keeps it unless the host or port changes, which
 * forgets it (the next delivery pins the key it meets). An e-mail target has none.
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { ErrorCode, fail, ok, type FieldIssue, type ReportInput } from '@gd/shared';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { fileRoute, route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { wakeJobRunners } from '../../jobs/runner.ts';
import { deleteFile } from '../../jobs/storedFiles.ts';
import { hostKeyOnSave, netPolicy } from '../../net/index.ts';
import { ISSUE_TEXT, addressProblems } from '../imports/netConfig.ts';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';
import { findProvider, providerSettings } from '../mailProviders/repository.ts';
import * as repo from './repository.ts';
import { runFile, runDays } from './run.ts';
import { nextSlot } from './schedule.ts';
import { kindAvailable } from './tables.ts';

const noReport = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this report');
const noRun = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this run');
const invalid = (issues: FieldIssue[]) => fail(ErrorCode.MANDATORY, issues.map((i) => `${i.path}: ${ISSUE_TEXT[i.message] ?? i.message}`).join('; '), issues);
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The app already has a report with that name', [{ path: 'name', message: 'name_taken' }]);
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export function reportRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const findReport = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findReport(db, appId, id) : Promise.resolve(undefined));

  /** The checks past the schema and the row's target and secret; a Failure, or what to write. */
  async function prepare(accountId: string, reportId: string, body: ReportInput, stored?: repo.ReportRow) {
    if (!kindAvailable(body.kind)) {
      return { failure: invalid([{ path: 'kind', message: 'kind_unavailable' }]) };
    }
    const t = body.target;
    if (t.type === 'email') {
      if (t.mailProviderId) {
        if (!(await findProvider(db, accountId, t.mailProviderId))) return { failure: fail(ErrorCode.NO_PERMISSION, 'No permission for this mail provider', [{ path: 'target.mailProviderId', message: 'not_found' }]) };
      } else if (!(await providerSettings(db, accountId, 'active'))) {
        return { failure: invalid([{ path: 'target.mailProviderId', message: 'no_active_provider' }]) };
      }
      return { target: { type: 'email', mailProviderId: t.mailProviderId, recipients: [...new Set(t.recipients)] } as repo.StoredTarget, secret: null, secretKinds: [] as string[], hostKey: null };
    }
    const issues = await addressProblems([{ path: 'target.host', host: t.host }], netPolicy(deps.config));
    if (issues.length) return { failure: invalid(issues) };
    const target: repo.StoredTarget = { type: 'sftp', host: t.host, port: t.port, username: t.username, path: t.path };
    // undefined keeps the pinned key (the same server); null forgets it.
    const hostKey = hostKeyOnSave(t.hostKeyFingerprint, stored?.target.type === 'sftp' ? stored.target : null, t);
    if (t.password !== undefined || t.privateKey !== undefined) {
      const secrets: Record<string, string> = {};
      if (t.password !== undefined) secrets.password = t.password;
      if (t.privateKey !== undefined) secrets.privateKey = t.privateKey;
      return { target, secret: sealSecrets(deps.secret, reportId, secrets), secretKinds: Object.keys(secrets), hostKey };
    }
    const same = stored?.target.type === 'sftp' && stored.target.host === t.host && stored.target.port === t.port && stored.target.username === t.username;
    const kept = same ? (await repo.reportSecret(db, stored.app_id, stored.id))?.secret ?? null : null;
    const opened = kept ? openSecrets(deps.secret, reportId, kept) : null;
    if (!opened) return { failure: invalid([{ path: 'target.password', message: stored?.target.type === 'sftp' ? 'password_again' : 'password_or_key' }]) };
    return { target, secret: kept, secretKinds: Object.keys(opened), hostKey };
  }

  const runAtOf = (body: ReportInput, timezone: string) => (body.active ? new Date(nextSlot(body.schedule, timezone, Date.now())) : null);

  route(router, deps, 'listReports', async ({ app }) => ok({ reports: (await repo.listReports(db, app.id)).map((r) => repo.toReport(r, r.last_run)) }));

  route(router, deps, 'getReport', async ({ app, params }) => {
    const row = await findReport(app.id, params.reportId);
    if (!row) return noReport();
    return ok({ report: repo.toReport(row, (await repo.listRuns(db, app.id, row.id))[0] ?? null) });
  });

  route(router, deps, 'createReport', async ({ app, principal, body }) => {
    const id = randomUUID();
    const prepared = await prepare(principal.account.id, id, body);
    if (prepared.failure) return prepared.failure;
    try {
      await repo.insertReport(db, {
        id, accountId: principal.account.id, appId: app.id, queue: deps.config.JOB_QUEUE, createdBy: principal.user.id,
        name: body.name, kind: body.kind, query: body.query, range: body.range, schedule: body.schedule, format: body.format,
        target: prepared.target, secret: prepared.secret, secretKinds: prepared.secretKinds, hostKey: prepared.hostKey ?? null, active: body.active, runAt: runAtOf(body, app.timezone),
      });
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
    wakeJobRunners();
    const row = await repo.findReport(db, app.id, id);
    return row ? ok({ report: repo.toReport(row, null) }) : noReport();
  });

  route(router, deps, 'updateReport', async ({ app, principal, params, body }) => {
    const stored = await findReport(app.id, params.reportId);
    if (!stored) return noReport();
    const prepared = await prepare(principal.account.id, stored.id, body, stored);
    if (prepared.failure) return prepared.failure;
    try {
      const done = await repo.updateReport(db, app.id, stored.id, {
        name: body.name, kind: body.kind, query: body.query, range: body.range, schedule: body.schedule, format: body.format,
        target: prepared.target, secret: prepared.secret, secretKinds: prepared.secretKinds, hostKey: prepared.hostKey, active: body.active, runAt: runAtOf(body, app.timezone),
      });
      if (!done) return noReport();
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
    wakeJobRunners();
    const row = await repo.findReport(db, app.id, stored.id);
    return row ? ok({ report: repo.toReport(row, (await repo.listRuns(db, app.id, row.id))[0] ?? null) }) : noReport();
  });

  route(router, deps, 'deleteReport', async ({ app, params }) => {
    const row = await findReport(app.id, params.reportId);
    if (!row) return noReport();
    const removed = await tx(db, async (client) => {
      const runs = await repo.deleteReport(client, app.id, row.id);
      for (const runId of runs ?? []) await deleteFile(client, runId);
      return runs !== undefined;
    });
    return removed ? ok({}) : noReport();
  });

  route(router, deps, 'runReportNow', async ({ app, principal, params }) => {
    const row = await findReport(app.id, params.reportId);
    if (!row) return noReport();
    if (!kindAvailable(row.kind)) return invalid([{ path: 'kind', message: 'kind_unavailable' }]);
    const id = randomUUID();
    await repo.insertRun(db, {
      id, accountId: row.account_id, appId: app.id, reportId: row.id, slot: null, trigger: 'manual', ...runDays(row, Date.now()),
      queue: row.queue, createdBy: principal.user.id,
    });
    wakeJobRunners();
    const run = await repo.findRun(db, app.id, row.id, id);
    return run ? ok({ run: repo.toReportRun(run) }) : noRun();
  });

  route(router, deps, 'listReportRuns', async ({ app, params }) => {
    const row = await findReport(app.id, params.reportId);
    if (!row) return noReport();
    return ok({ runs: (await repo.listRuns(db, app.id, row.id)).map(repo.toReportRun) });
  });

  fileRoute(router, deps, 'downloadReportRun', async ({ app, params, res }) => {
    const report = await findReport(app.id, params.reportId);
    const run = report && params.runId && isUuid(params.runId) ? await repo.findRun(db, app.id, report.id, params.runId) : undefined;
    if (!run) return noRun();
    if (run.status === 'processing' || run.byte_size === null) {
      return fail(ErrorCode.NOT_EXIST, run.status === 'processing' ? 'The run is still being written' : 'The run failed before its file was written');
    }
    const name = run.file_name ?? `report.${report?.format ?? 'csv'}`;
    res.setHeader('Content-Type', name.endsWith('.zip') ? 'application/zip' : 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`);
    res.setHeader('Content-Length', String(run.byte_size));
    await pipeline(runFile(db, run.id), res).catch((error: unknown) => deps.log.warn({ err: error, run: run.id }, 'report download interrupted'));
    return undefined;
  });
}
