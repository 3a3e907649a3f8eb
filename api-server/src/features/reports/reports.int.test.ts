/**
 * Scheduled reports against real Postgres, a real SMTP server and a real SFTP server on loopback:
 * - e-mail delivery through the account's active provider: the attached csv's rows equal the
 *   explore answer for the same days; the download is the same file; refused recipients warn;
 * - SFTP delivery (password and private key): the uploaded zip holds the main csv and the totals;
 * - (SFTP host keys: reportHostKeys.int.test.ts)
 * - the schedule: a due report records one run for its slot and moves to the next slot; two
 *   claims of the same slot record one run;
 * - a worker that dies after the file, after sending or after recording the delivery: the run is
 *   taken over and delivered (sent twice only when it died between sending and recording, under the
 *   same Message-ID);
 * - a failed delivery retries with backoff, then ends in error with its reason;
 * - refusals: bad input (10001), unavailable kinds, another account's mail provider,
 *   another app's report and run ids (10004), a private SFTP host; nothing half-written.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, ErrorCode, type ExploreSeries, type Report, type ReportRun } from '@gd/shared';
import { claimJob, startJobRunner, type JobContext } from '../../jobs/runner.ts';
import { netPolicy } from '../../net/index.ts';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { breakdownLabel } from './files.ts';
import * as repo from './repository.ts';
import { reportRunJobKind, reportScheduleJobKind, runReport, scheduleDue, type ReportJobDeps } from './run.ts';
import { parseCsv } from '../../testing/csv.ts';
import { createReport, exploreInput, runNow, settled } from './testing/calls.ts';
import { attachmentsOf, startSftpSink, startSmtpSink, type SftpSink, type SmtpFixture } from './testing/servers.ts';

const SFTP_USER = 'reports';
const SFTP_PASSWORD = 'Sftp-Secret-pw-5521';
let api: TestApi;
let smtp: SmtpFixture;
let sftp: SftpSink;
let deps: ReportJobDeps;

beforeAll(async () => {
  api = await startTestApi({
    OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', JOB_QUEUE: `it-reports-${randomBytes(4).toString('hex')}`,
    INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000',
  });
  smtp = await startSmtpSink({ refuse: /^refused/ });
  sftp = await startSftpSink({ user: SFTP_USER, password: SFTP_PASSWORD });
  deps = { db: api.deps.db, log: pino({ level: 'silent' }), secret: api.deps.secret, net: netPolicy(api.deps.config) };
});
afterAll(async () => {
  await smtp.close();
  await sftp.close();
  await api.stop();
});

const DAY = 86_400_000;
const device = (id = randomUUID()) => ({ id, os: 'Android', appVersion: '1.0', country: 'ES' });
const event = (name: string, time: number, properties: Record<string, string | number> = {}) => ({ id: randomUUID(), name, time: new Date(time).toISOString(), properties });

interface Fixture { client: TestClient; accountId: string; app: { id: string; appKey: string }; providerId: string }

/** An account with an app in Madrid, an active mail provider on the SMTP sink, and product views over the last days. */
async function fixture(): Promise<Fixture> {
  const { client, accountId } = await registerAccount(api);
  const app = await createTestApp(client, { timezone: 'Europe/Madrid' });
  const { provider } = await client.ok<{ provider: { id: string } }>('createMailProvider', {
    name: `Sink ${randomBytes(3).toString('hex')}`, host: '127.0.0.1', port: smtp.port, tls: 'none', username: '', senderName: 'Reports', senderEmail: 'reports@acme.example.com',
  });
  await client.ok('activateMailProvider', undefined, { providerId: provider.id });
  const now = Date.now();
  const views = [
    { device: device(), events: [event('product_view', now - 2 * DAY, { category: 'shoes' }), event('product_view', now - 1 * DAY, { category: 'shoes' }), event('product_view', now - 60_000)] },
    { device: device(), events: [event('product_view', now - 3 * DAY, { category: '=cmd|calc' }), event('product_view', now - 2 * DAY, { category: 'bags, large' })] },
  ];
  for (const batch of views) expect((await ingest(api, app.appKey, 'ingestBatch', batch)).body).toMatchObject({ status: 'OK' });
  return { client, accountId, app, providerId: provider.id };
}

async function download(f: Fixture, reportId: string, runId: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(`${api.url}/api/apps/${f.app.id}/reports/${reportId}/runs/${runId}/download`, {
    headers: { cookie: [...f.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

/** The explore answer for the run's days, as the report's rows should read. */
async function expectedExploreRows(f: Fixture, run: ReportRun, compare = false): Promise<{ series: string[][]; totals: string[][] }> {
  const answer = await f.client.ok<{ buckets: string[]; series: ExploreSeries[] }>('explore', undefined, { appId: f.app.id }, {
    event: 'product_view', metric: 'events', breakdown: 'property', property: 'category', startDay: run.startDay, endDay: run.endDay, compare,
  });
  const cell = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  return {
    series: answer.buckets.flatMap((b, i) => answer.series.map((s) => [b, cell(breakdownLabel(s.key)), String(s.values[i] ?? 0), ...(compare ? [String(s.previous?.[i] ?? 0)] : [])])),
    totals: answer.series.map((s) => [cell(breakdownLabel(s.key)), String(s.total), ...(compare ? [String(s.previousTotal ?? 0)] : [])]),
  };
}

/** The mail provider's sender domain (fixture): the run's Message-ID is on it. */
const SENDER_DOMAIN = 'acme.example.com';
const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

describe('scheduled reports', () => {
  it('runs an explore report now and e-mails its csv, whose rows are the explore answer; the download is the same file', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({ target: { type: 'email', recipients: ['Team.A@acme.example.com', 'boss.a@acme.example.com'] } }));
    expect(report).toMatchObject({ kind: 'explore', active: true, timezone: 'Europe/Madrid', target: { type: 'email', mailProviderId: null, recipients: ['team.a@acme.example.com', 'boss.a@acme.example.com'] } });
    expect(Date.parse(report.nextRunAt!)).toBeGreaterThan(Date.now());

    const run = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(run).toMatchObject({ status: 'ready', trigger: 'manual', slot: null, warning: null, errorMessage: null });
    const [mail] = mailsTo('team.a@acme.example.com');
    expect(mail!.to.sort()).toEqual(['boss.a@acme.example.com', 'team.a@acme.example.com']);
    const [attachment] = attachmentsOf(mail!.raw);
    expect(attachment!.filename).toBe(run.fileName);
    const rows = parseCsv(attachment!.content.toString('utf8'));
    const expected = await expectedExploreRows(f, run);
    expect(rows[0]).toEqual(['date', 'category', 'events']);
    expect(rows.slice(1)).toEqual(expected.series);
    expect(run.rowCount).toBe(expected.series.length);
    // The screen's sentinels as their labels, formulas neutralised, commas quoted.
    expect(rows.some((r) => r[1] === '(empty)')).toBe(true);
    expect(rows.some((r) => r[1] === `'=cmd|calc`)).toBe(true);
    expect(attachment!.content.toString('utf8')).toContain('"bags, large"');
    expect(rows.flat()).not.toContain(EMPTY_SENTINEL);
    // 4 views in the last 7 days of the 5 (one 3 days ago may fall out only at a day's edge: the answer decides).
    expect(rows.slice(1).reduce((n, r) => n + Number(r[2]), 0)).toBeGreaterThan(0);

    const file = await download(f, report.id, run.id);
    expect(file.status).toBe(200);
    expect(file.type).toContain('text/csv');
    expect(file.body.equals(attachment!.content)).toBe(true);
    expect(run.byteSize).toBe(file.body.length);

    const { reports } = await f.client.ok<{ reports: Report[] }>('listReports', undefined, { appId: f.app.id });
    expect(reports.find((r) => r.id === report.id)?.lastRun).toMatchObject({ id: run.id, status: 'ready' });
  });

  it('warns when the mail server refuses some recipients, and when the report has no data', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({ target: { type: 'email', mailProviderId: f.providerId, recipients: ['ok.b@acme.example.com', 'refused.b@acme.example.com'] } }));
    const run = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(run.status).toBe('warning');
    expect(run.warning).toContain('refused.b@acme.example.com');
    expect(mailsTo('ok.b@acme.example.com')).toHaveLength(1);

    const empty = await createReport(f, exploreInput({ query: { event: 'never_sent' }, target: { type: 'email', recipients: ['empty.b@acme.example.com'] } }));
    const emptyRun = await settled(f, empty.id, (await runNow(f, empty.id)).id);
    expect(emptyRun).toMatchObject({ status: 'warning', warning: 'The report has no data for its days' });
    expect(mailsTo('empty.b@acme.example.com')).toHaveLength(1);
  });

  it('uploads a zip to SFTP by password (main csv and totals) and a communication report by private key', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({
      query: { event: 'product_view', breakdown: 'property', property: 'category', compare: true }, format: 'zip',
      target: { type: 'sftp', host: '127.0.0.1', port: sftp.port, username: SFTP_USER, password: SFTP_PASSWORD, path: '/out/daily' },
    }));
    expect(report.target).toEqual({ type: 'sftp', host: '127.0.0.1', port: sftp.port, username: SFTP_USER, path: '/out/daily', hasPassword: true, hasPrivateKey: false, hostKeyFingerprint: null });
    expect(JSON.stringify(report)).not.toContain(SFTP_PASSWORD);
    const { rows: sealed } = await api.db.query<{ secret: Buffer }>('SELECT secret FROM scheduled_reports WHERE id = $1 AND app_id = $2', [report.id, f.app.id]);
    expect(sealed[0]!.secret.toString('latin1')).not.toContain(SFTP_PASSWORD);

    const run = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(run.status).toBe('ready');
    const uploaded = sftp.files.get(`/out/daily/${run.fileName}`);
    expect(uploaded).toBeDefined();
    expect([...sftp.files.keys()].some((k) => k.endsWith('.part'))).toBe(false);
    const entries = unzipSync(new Uint8Array(uploaded!));
    const base = run.fileName!.replace(/\.zip$/, '');
    expect(Object.keys(entries).sort()).toEqual([`${base}-totals.csv`, `${base}.csv`]);
    const expected = await expectedExploreRows(f, run, true);
    expect(parseCsv(strFromU8(entries[`${base}.csv`]!))).toEqual([['date', 'category', 'events', 'previous_events'], ...expected.series]);
    expect(parseCsv(strFromU8(entries[`${base}-totals.csv`]!))).toEqual([['category', 'total_events', 'previous_total_events'], ...expected.totals]);
    expect(run.rowCount).toBe(expected.series.length + expected.totals.length);

    // Editing without the password keeps it; a communication report logs in with a key.
    const { report: edited } = await f.client.ok<{ report: Report }>('updateReport', { ...exploreInput({ name: report.name, format: 'zip', target: { type: 'sftp', host: '127.0.0.1', port: sftp.port, username: SFTP_USER, path: '/out/daily' } }) }, { appId: f.app.id, reportId: report.id });
    expect(edited.target).toMatchObject({ hasPassword: true });
    const comms = await createReport(f, {
      name: 'Messages weekly', kind: 'communication', range: 'lastFullWeek', schedule: { frequency: 'weekly', weekday: 1, hour: 8 }, format: 'csv',
      target: { type: 'sftp', host: '127.0.0.1', port: sftp.port, username: SFTP_USER, privateKey: sftp.privateKey, path: '/out' },
    });
    expect(comms.target).toMatchObject({ hasPassword: false, hasPrivateKey: true });
    const commsRun = await settled(f, comms.id, (await runNow(f, comms.id)).id);
    expect(commsRun).toMatchObject({ status: 'warning', warning: 'The report has no data for its days', rowCount: 0 });
    expect(parseCsv(sftp.files.get(`/out/${commsRun.fileName}`)!.toString('utf8'))[0]).toEqual(expect.arrayContaining(['message', 'campaign', 'sents', 'previous_sents']));
    expect(sftp.logins.some((l) => l.method === 'publickey' && l.accepted)).toBe(true);
  });

  it('e-mails a funnel report (zip: steps, over time, time to convert) and a cohort report, whose rows are their answers', async () => {
    const f = await fixture();
    const now = Date.now();
    const buyer = device();
    const batch = { device: buyer, events: [event('product_view', now - 2 * DAY), event('purchase', now - 2 * DAY + 3_600_000), event('product_view', now - DAY)] };
    expect((await ingest(api, f.app.appKey, 'ingestBatch', batch)).body).toMatchObject({ status: 'OK' });

    const funnelQuery = { steps: [{ event: 'product_view', filters: [] }, { event: 'purchase', filters: [] }], window: { value: 1, unit: 'day' } };
    const funnel = await createReport(f, exploreInput({ kind: 'funnel', query: funnelQuery, format: 'zip', target: { type: 'email', recipients: ['funnel.f@acme.example.com'] } }));
    const funnelRun = await settled(f, funnel.id, (await runNow(f, funnel.id)).id);
    expect(funnelRun.status).toBe('ready');
    const [zip] = attachmentsOf(mailsTo('funnel.f@acme.example.com')[0]!.raw);
    const entries = unzipSync(new Uint8Array(zip!.content));
    const base = funnelRun.fileName!.replace(/\.zip$/, '');
    expect(Object.keys(entries).sort()).toEqual([`${base}-over-time.csv`, `${base}-time-to-convert.csv`, `${base}.csv`]);
    const answer = await f.client.ok<{ steps: string[]; total: { counts: number[] }; overTime: { buckets: string[]; entered: number[]; converted: number[] }; histogram: { upTo: number; people: number }[] }>(
      'queryFunnel', { ...funnelQuery, startDay: funnelRun.startDay, endDay: funnelRun.endDay }, { appId: f.app.id });
    expect(answer.total.counts[1]).toBe(1);
    const steps = parseCsv(strFromU8(entries[`${base}.csv`]!));
    expect(steps[0]).toEqual(['series', 'step', 'event', 'people', 'conversion', 'step_conversion', 'avg_seconds_to_convert', 'median_seconds_to_convert']);
    expect(steps.slice(1).filter((r) => r[0] === 'Total').map((r) => [r[2], Number(r[3])])).toEqual(answer.steps.map((e, i) => [e, answer.total.counts[i]]));
    expect(parseCsv(strFromU8(entries[`${base}-over-time.csv`]!)).slice(1).map((r) => [r[0], Number(r[1]), Number(r[2])]))
      .toEqual(answer.overTime.buckets.map((b, i) => [b, answer.overTime.entered[i], answer.overTime.converted[i]]));
    expect(parseCsv(strFromU8(entries[`${base}-time-to-convert.csv`]!)).slice(1).map((r) => r.map(Number))).toEqual(answer.histogram.map((h) => [h.upTo, h.people]));

    const cohortQuery = { start: { event: 'product_view', filters: [] }, return: null, period: 'day', periods: 7, returnOn: 'on' };
    const cohort = await createReport(f, exploreInput({ kind: 'cohort', query: cohortQuery, target: { type: 'email', recipients: ['cohort.f@acme.example.com'] } }));
    const cohortRun = await settled(f, cohort.id, (await runNow(f, cohort.id)).id);
    expect(cohortRun.status).toBe('ready');
    const rows = parseCsv(attachmentsOf(mailsTo('cohort.f@acme.example.com')[0]!.raw)[0]!.content.toString('utf8'));
    const retention = await f.client.ok<{ rows: { cohort: string; size: number; counts: (number | null)[]; complete: boolean[] }[] }>(
      'cohort', { ...cohortQuery, startDay: cohortRun.startDay, endDay: cohortRun.endDay }, { appId: f.app.id });
    expect(rows[0]).toEqual(['cohort', 'cohort_size', 'period', 'people', 'retention', 'complete']);
    expect(rows.slice(1).map((r) => [r[0], Number(r[1]), Number(r[2]), r[3] === '' ? null : Number(r[3]), r[5]]))
      .toEqual(retention.rows.flatMap((r) => r.counts.map((people, period) => [r.cohort, r.size, period, people, String(r.complete[period])])));
    // Today's cohort has incomplete periods, marked as the screen marks them.
    expect(rows.some((r) => r[5] === 'false')).toBe(true);
    expect(cohortRun.rowCount).toBe(rows.length - 1);
  });

  it('records one run per due slot, for the latest slot, and moves to the next slot', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({ schedule: { frequency: 'hourly', minute: 0 }, range: 'today', active: false, target: { type: 'email', recipients: ['sched.c@acme.example.com'] } }));
    expect(report.nextRunAt).toBeNull();
    // Due three hours ago (missed runs): activate with run_at in the past, on a queue only this test serves.
    const queue = `sched-${randomBytes(3).toString('hex')}`;
    const threeHoursAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000);
    await api.db.query(`UPDATE scheduled_reports SET active = true, queue = $3, run_at = $2 WHERE id = $1`, [report.id, threeHoursAgo, queue]);
    const kind = reportScheduleJobKind(deps);
    const first = await claimJob(api.db, kind, queue, 'worker-a', 60);
    expect(first?.id).toBe(report.id);
    // A second worker finds nothing to claim while the first holds it.
    expect(await claimJob(api.db, kind, queue, 'worker-b', 60)).toBeUndefined();
    const ctx = (workerId: string): JobContext => ({ workerId, signal: new AbortController().signal, renew: () => Promise.resolve(true) });
    await scheduleDue(deps, first!, ctx('worker-a'));
    const runs = (await api.db.query<{ slot: Date; trigger: string; queue: string }>('SELECT slot, trigger, queue FROM report_runs WHERE report_id = $1 AND app_id = $2', [report.id, f.app.id])).rows;
    expect(runs).toHaveLength(1);
    const latest = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    expect(runs[0]!.slot.getTime()).toBe(latest);
    expect(runs[0]!.trigger).toBe('schedule');
    const after = await repo.findReport(api.db, f.app.id, report.id);
    expect(after!.run_at!.getTime()).toBe(latest + 3_600_000);

    // The same slot claimed again (a worker that died before moving run_at): still one run.
    await api.db.query(`UPDATE scheduled_reports SET run_at = $2 WHERE id = $1`, [report.id, new Date(latest)]);
    const again = await claimJob(api.db, kind, queue, 'worker-b', 60);
    await scheduleDue(deps, again!, ctx('worker-b'));
    expect((await api.db.query('SELECT 1 FROM report_runs WHERE report_id = $1', [report.id])).rowCount).toBe(1);

    // A runner on that queue delivers the recorded run once.
    const runner = startJobRunner({ db: api.db, log: deps.log, queue, kinds: [reportScheduleJobKind(deps), reportRunJobKind(deps)], intervalMs: 50 });
    try {
      const { rows } = await api.db.query<{ id: string }>('SELECT id FROM report_runs WHERE report_id = $1', [report.id]);
      const run = await settled(f, report.id, rows[0]!.id);
      expect(run.status).toBe('ready');
      expect(run.slot).toBe(new Date(latest).toISOString());
    } finally {
      await runner.stop();
    }
    expect(mailsTo('sched.c@acme.example.com')).toHaveLength(1);
  });

  // Where the worker stops: the e-mails seen then, and in all once the run is taken over. Sent but
  // not recorded, the run is sent again (at least once), under the same Message-ID.
  const crashes = [
    { at: 'afterFile', label: 'after writing the file', atCrash: 0, total: 1 },
    { at: 'afterSend', label: 'after sending, before recording it', atCrash: 1, total: 2 },
    { at: 'afterDelivery', label: 'after recording the delivery', atCrash: 1, total: 1 },
  ] as const;
  for (const crash of crashes) {
    it(`a worker that dies ${crash.label}: the run is taken over and delivered, ${crash.total === 1 ? 'once' : 'again with the same Message-ID'}`, async () => {
      const f = await fixture();
      const recipient = `crash.${crash.at.toLowerCase()}@acme.example.com`;
      const report = await createReport(f, exploreInput({ active: false, target: { type: 'email', recipients: [recipient] } }));
      const queue = `crash-${randomBytes(3).toString('hex')}`;
      const runId = randomUUID();
      await repo.insertRun(api.db, { id: runId, accountId: f.accountId, appId: f.app.id, reportId: report.id, slot: null, trigger: 'manual', startDay: '2026-01-01', endDay: new Date().toISOString().slice(0, 10), queue, createdBy: null });
      const kind = reportRunJobKind(deps);
      const claimed = await claimJob(api.db, kind, queue, 'doomed-worker', 1);
      let reached!: () => void;
      const atCrash = new Promise<void>((resolve) => { reached = resolve; });
      // The doomed worker stops for good at the crash point (a process frozen or killed there).
      const frozen = { ...deps, hooks: { [crash.at]: () => { reached(); return new Promise<void>(() => undefined); } } };
      void runReport(frozen, claimed!, { workerId: 'doomed-worker', signal: new AbortController().signal, renew: () => Promise.resolve(true) });
      await atCrash;
      expect(mailsTo(recipient)).toHaveLength(crash.atCrash);
      // Restart: a new worker on the queue takes the run over once the lease expired.
      const runner = startJobRunner({ db: api.db, log: deps.log, queue, kinds: [kind], intervalMs: 100 });
      try {
        const run = await settled(f, report.id, runId);
        expect(run).toMatchObject({ status: 'ready', attempts: 2 });
      } finally {
        await runner.stop();
      }
      const mails = mailsTo(recipient);
      expect(mails).toHaveLength(crash.total);
      // The header may be folded onto the next line.
      for (const mail of mails) expect(/^Message-ID:\s*(<[^>]+>)/im.exec(mail.raw)?.[1]).toBe(`<report-run.${runId}@${SENDER_DOMAIN}>`);
    });
  }

  it('retries a failed delivery with backoff, then ends in error with the reason', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({ target: { type: 'email', recipients: ['refused.only@acme.example.com'] } }));
    const { id } = await runNow(f, report.id);
    const first = await settled(f, report.id, id, (r) => r.lastError !== null);
    expect(first).toMatchObject({ status: 'processing', attempts: 1 });
    expect(first.lastError).toContain('did not accept');
    // The first retry waits 30 s.
    expect(Date.parse(first.retryAt!) - Date.now()).toBeGreaterThan(20_000);
    // Time passes: each retry made due at once (once the attempt before has ended), until the attempts run out.
    const between = async (attempts: number) => {
      for (let i = 0; i < 600; i++) {
        const { rows } = await api.db.query<{ attempts: number; locked_by: string | null }>('SELECT attempts, locked_by FROM report_runs WHERE id = $1', [id]);
        if (rows[0]!.attempts >= attempts && rows[0]!.locked_by === null) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the attempt did not end');
    };
    for (let attempt = 2; attempt <= 4; attempt++) {
      await between(attempt - 1);
      await api.db.query(`UPDATE report_runs SET run_at = now() WHERE id = $1 AND status = 'processing'`, [id]);
    }
    await between(4);
    const last = await settled(f, report.id, id);
    expect(last.status).toBe('error');
    expect(last.errorMessage).toContain('did not accept');
    expect(last.attempts).toBe(4);
    // The file was written: it can still be downloaded.
    expect((await download(f, report.id, id)).status).toBe(200);
  });

  it('refuses bad input, unavailable kinds, another account\'s mail provider, private hosts and other apps\' ids, writing nothing', async () => {
    const f = await fixture();
    const other = await fixture();
    const count = async () => Number((await api.db.query<{ n: string }>('SELECT count(*) AS n FROM scheduled_reports WHERE app_id = $1', [f.app.id])).rows[0]!.n);
    const before = await count();
    const refused = async (input: Record<string, unknown>, code: number, path?: string) => {
      const answer = await f.client.call('createReport', input, { appId: f.app.id });
      expect(answer.body).toMatchObject({ status: 'KO', code });
      if (path) expect((answer.body.details as { path: string }[]).map((d) => d.path)).toContain(path);
      return answer.body;
    };
    await refused(exploreInput({ target: { type: 'email', recipients: [] } }), ErrorCode.MANDATORY, 'target.recipients');
    await refused(exploreInput({ target: { type: 'email', recipients: ['not-an-address'] } }), ErrorCode.MANDATORY, 'target.recipients.0');
    await refused(exploreInput({ schedule: { frequency: 'fortnightly' } }), ErrorCode.MANDATORY, 'schedule.frequency');
    await refused(exploreInput({ schedule: { frequency: 'half_hour', minute: 45 } }), ErrorCode.MANDATORY, 'schedule.minute');
    await refused(exploreInput({ query: { event: 'product_view', startDay: '2026-01-01', endDay: '2026-01-02' } }), ErrorCode.MANDATORY, 'query.startDay');
    await refused(exploreInput({ query: { event: 'product_view', breakdown: 'property' } }), ErrorCode.MANDATORY, 'query.property');
    await refused(exploreInput({ name: '' }), ErrorCode.MANDATORY, 'name');
    await refused(exploreInput({ kind: 'funnel', query: { steps: [{ event: 'a', filters: [] }] } }), ErrorCode.MANDATORY, 'query.steps');
    await refused(exploreInput({ kind: 'cohort', query: { start: { event: 'a', filters: [] }, periods: 99 } }), ErrorCode.MANDATORY, 'query.periods');
    await refused(exploreInput({ target: { type: 'email', mailProviderId: other.providerId, recipients: ['x@acme.example.com'] } }), ErrorCode.NO_PERMISSION, 'target.mailProviderId');
    await refused(exploreInput({ target: { type: 'sftp', host: '10.1.2.3', username: 'u', password: 'p' } }), ErrorCode.MANDATORY, 'target.host');
    await refused(exploreInput({ target: { type: 'sftp', host: '127.0.0.1', port: sftp.port, username: 'u' } }), ErrorCode.MANDATORY, 'target.password');
    expect(await count()).toBe(before);

    // Names are unique per app.
    const report = await createReport(f, exploreInput({ name: 'Unique name' }));
    await refused(exploreInput({ name: 'unique NAME' }), ErrorCode.NAME_DUPLICATED, 'name');

    // Another app's report and run ids answer like unknown ones and change nothing.
    const run = await settled(f, report.id, (await runNow(f, report.id)).id);
    const theirs = { appId: other.app.id, reportId: report.id };
    for (const [name, body] of [['getReport', undefined], ['updateReport', exploreInput()], ['deleteReport', undefined], ['runReportNow', undefined], ['listReportRuns', undefined]] as const) {
      expect((await other.client.call(name, body, theirs)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
      expect((await other.client.call(name, body, { appId: other.app.id, reportId: randomUUID() })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    }
    const foreign = await fetch(`${api.url}/api/apps/${other.app.id}/reports/${report.id}/runs/${run.id}/download`, { headers: { cookie: [...other.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(((await foreign.json()) as { code: number }).code).toBe(ErrorCode.NO_PERMISSION);
    // And the caller's own app cannot reach them through another's path either.
    expect((await f.client.call('getReport', undefined, theirs)).body).toMatchObject({ status: 'KO' });
    expect((await f.client.ok<{ report: Report }>('getReport', undefined, { appId: f.app.id, reportId: report.id })).report.name).toBe('Unique name');
    expect((await f.client.ok<{ runs: ReportRun[] }>('listReportRuns', undefined, { appId: f.app.id, reportId: report.id })).runs).toHaveLength(1);

    // Deleting removes the runs and their files.
    await f.client.ok('deleteReport', undefined, { appId: f.app.id, reportId: report.id });
    expect((await api.db.query('SELECT 1 FROM report_runs WHERE report_id = $1', [report.id])).rowCount).toBe(0);
    expect((await api.db.query('SELECT 1 FROM stored_file_chunks WHERE file_id = $1', [run.id])).rowCount).toBe(0);
  });
});
