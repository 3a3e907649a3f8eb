/**
 * SFTP host keys of scheduled reports against real Postgres and real SFTP servers on loopback: the
 * key is pinned by the first delivery or given in advance; a server presenting another key is
 * refused before logging in (nothing uploaded, no retry, the file kept for download) until an edit
 * confirms the new key; a host or port change forgets the pinned key unless one is given; malformed
 * fingerprints are refused (400). The rest of the reports' behaviour: reports.int.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Report } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { createReport, exploreInput, runNow, settled, type ReportOwner } from './testing/calls.ts';
import { startSftpSink, type SftpSink } from './testing/servers.ts';

const SFTP_USER = 'reports';
const SFTP_PASSWORD = 'Sftp-Secret-pw-5521';
let api: TestApi;
/** A server of these tests' own, whose host key they replace, and another one (another port). */
let keyed: SftpSink;
let other: SftpSink;

beforeAll(async () => {
  api = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', JOB_QUEUE: `it-report-keys-${randomBytes(4).toString('hex')}` });
  keyed = await startSftpSink({ user: SFTP_USER, password: SFTP_PASSWORD });
  other = await startSftpSink({ user: SFTP_USER, password: SFTP_PASSWORD });
});
afterAll(async () => {
  await keyed?.close();
  await other?.close();
  await api.stop();
});

/**
 * An account with an app, a product view yesterday (so a report of the last 7 days has rows) and an
 * active mail provider (nothing is mailed here: an edit back to an e-mail target needs one).
 */
async function fixture(): Promise<ReportOwner> {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client, { timezone: 'Europe/Madrid' });
  const { provider } = await client.ok<{ provider: { id: string } }>('createMailProvider', {
    name: `Unused ${randomBytes(3).toString('hex')}`, host: '127.0.0.1', port: 2525, tls: 'none', username: '', senderName: 'Reports', senderEmail: 'reports@acme.example.com',
  });
  await client.ok('activateMailProvider', undefined, { providerId: provider.id });
  const views = { device: { id: randomUUID(), os: 'Android' }, events: [{ id: randomUUID(), name: 'product_view', time: new Date(Date.now() - 86_400_000).toISOString(), properties: { category: 'shoes' } }] };
  expect((await ingest(api, app.appKey, 'ingestBatch', views)).body).toMatchObject({ status: 'OK' });
  return { client, app };
}

async function download(f: ReportOwner, reportId: string, runId: string): Promise<number> {
  const res = await fetch(`${api.url}/api/apps/${f.app.id}/reports/${reportId}/runs/${runId}/download`, {
    headers: { cookie: [...f.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return res.status;
}

describe('SFTP host keys', () => {
  /** A well-formed fingerprint of no server here. */
  const OTHER_KEY = 'SHA256:Z1yRF4efBE+7iV3G4G0bp18dnCBBPUAdOHUBYOmD6E4';
  const sftpTarget = (extra: Record<string, unknown> = {}) => ({ type: 'sftp', host: '127.0.0.1', port: keyed.port, username: SFTP_USER, password: SFTP_PASSWORD, path: '/keyed', ...extra });
  const targetOf = async (f: ReportOwner, reportId: string) => (await f.client.ok<{ report: Report }>('getReport', undefined, { appId: f.app.id, reportId })).report.target;
  const edit = async (f: ReportOwner, report: Report, target: Record<string, unknown>) =>
    (await f.client.ok<{ report: Report }>('updateReport', exploreInput({ name: report.name, target }), { appId: f.app.id, reportId: report.id })).report.target;

  it('pins the key the first delivery meets; the same server delivers again; another key fails the run at once, before logging in, until an edit confirms it', async () => {
    const f = await fixture();
    const report = await createReport(f, exploreInput({ target: sftpTarget() }));
    expect(report.target).toMatchObject({ type: 'sftp', hostKeyFingerprint: null });
    const first = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(first.status).toBe('ready');
    const pinned = keyed.hostKeyFingerprint;
    expect(await targetOf(f, report.id)).toMatchObject({ hostKeyFingerprint: pinned });
    const second = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(second.status).toBe('ready');
    expect(keyed.files.has(`/keyed/${second.fileName}`)).toBe(true);

    // The same host and port now present another key.
    const replaced = keyed.replaceHostKey();
    const files = [...keyed.files.keys()];
    const logins = keyed.logins.length;
    const refused = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(refused).toMatchObject({ status: 'error', attempts: 1, lastError: null, deliveredAt: null });
    expect(refused.errorMessage).toContain(`presented the host key ${replaced}, but ${pinned} is pinned`);
    expect(refused.errorMessage).toContain('confirm the new key: edit this report');
    expect([...keyed.files.keys()]).toEqual(files);
    expect(keyed.logins).toHaveLength(logins); // no password was sent
    expect(await targetOf(f, report.id)).toMatchObject({ hostKeyFingerprint: pinned });
    // The file is kept for download.
    expect(await download(f, report.id, refused.id)).toBe(200);

    // Replacing the pinned fingerprint with the new one (the password kept) confirms it.
    const { password: _password, ...withoutPassword } = sftpTarget();
    expect(await edit(f, report, { ...withoutPassword, hostKeyFingerprint: replaced })).toMatchObject({ hostKeyFingerprint: replaced, hasPassword: true });
    const confirmed = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(confirmed.status).toBe('ready');
    expect(keyed.files.has(`/keyed/${confirmed.fileName}`)).toBe(true);
  });

  it('takes a fingerprint in advance (another one is refused, the server\'s own delivers), forgets it when the host or port changes, and refuses malformed ones', async () => {
    const f = await fixture();
    const logins = keyed.logins.length;
    const files = keyed.files.size;
    const report = await createReport(f, exploreInput({ target: sftpTarget({ hostKeyFingerprint: OTHER_KEY }) }));
    expect(report.target).toMatchObject({ hostKeyFingerprint: OTHER_KEY });
    const refused = await settled(f, report.id, (await runNow(f, report.id)).id);
    expect(refused).toMatchObject({ status: 'error', attempts: 1 });
    expect(refused.errorMessage).toContain(`presented the host key ${keyed.hostKeyFingerprint}, but ${OTHER_KEY} is pinned`);
    expect(keyed.logins).toHaveLength(logins);
    expect(keyed.files.size).toBe(files);

    const matching = await createReport(f, exploreInput({ target: sftpTarget({ hostKeyFingerprint: keyed.hostKeyFingerprint }) }));
    const delivered = await settled(f, matching.id, (await runNow(f, matching.id)).id);
    expect(delivered.status).toBe('ready');
    expect(keyed.files.has(`/keyed/${delivered.fileName}`)).toBe(true);

    // Edits: other fields keep the pinned key, another port forgets it unless one is given, null forgets it.
    const { password: _password, ...base } = sftpTarget();
    expect(await edit(f, matching, { ...base, path: '/elsewhere', username: 'someone', password: 'x' })).toMatchObject({ hostKeyFingerprint: keyed.hostKeyFingerprint });
    expect(await edit(f, matching, { ...base, port: other.port, password: SFTP_PASSWORD })).toMatchObject({ hostKeyFingerprint: null });
    expect(await edit(f, matching, { ...base, port: other.port, password: SFTP_PASSWORD, hostKeyFingerprint: OTHER_KEY })).toMatchObject({ hostKeyFingerprint: OTHER_KEY });
    expect(await edit(f, matching, { ...base, port: other.port, hostKeyFingerprint: null })).toMatchObject({ hostKeyFingerprint: null });
    expect(await edit(f, matching, { type: 'email', recipients: ['keys@acme.example.com'] })).not.toHaveProperty('hostKeyFingerprint');
    expect((await api.db.query<{ sftp_host_key: string | null }>('SELECT sftp_host_key FROM scheduled_reports WHERE id = $1', [matching.id])).rows[0]!.sftp_host_key).toBeNull();

    for (const malformed of ['SHA256:', OTHER_KEY.slice(0, -1), `${OTHER_KEY}=`, 'ab:cd:ef:01', `${OTHER_KEY.slice(0, -1)}F`]) {
      const answer = await f.client.call('createReport', exploreInput({ target: sftpTarget({ hostKeyFingerprint: malformed }) }), { appId: f.app.id });
      expect(answer.httpStatus).toBe(400);
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'target.hostKeyFingerprint' }] });
      expect(answer.body.message).toContain('ssh-keygen -lf');
    }
  });
});
