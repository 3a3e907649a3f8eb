/**
 * Imports through the real API and worker against servers on loopback: CSV inline and uploaded,
 * HTTPS (self-signed certificate trusted through config), FTP and SFTP with a login, S3 with signature V4,
 * the identifier types, malformed CSV (names the line, stores nothing, the previous members stay),
 * private addresses refused (with and without the tests' allow-list), write-only passwords, SFTP
 * host keys pinned (on first use or in advance; another key refused before logging in), and the
 * permission keys ui:importTask.*.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { seeder } from '../segments/testing/data.ts';
import {
  startFtpServer, startHttpsServer, startS3Server, startSftpServer, type FtpFixture, type HttpsFixture, type S3Fixture, type SftpFixture,
} from './testing/servers.ts';

interface Task {
  id: string; name: string; status: string; audienceId: string | null; audienceName: string | null; hasPassword: boolean; hasUpload: boolean; personCount: number | null;
  warning: string | null; errorName: string | null; errorMessage: string | null; errorLine: number | null; config: Record<string, unknown>; attempts: number;
  progress: { rowsRead: number; rowsMatched: number; rowsUnmatched: number; bytesRead: number; bytesTotal: number | null };
}
interface Audience { id: string; status: string; personCount: number | null; errorName: string | null }

const queue = () => `it-imports-${randomBytes(4).toString('hex')}`;
const KNOWN = ['c-1', 'c-2', 'c-3', 'c-4'];
const FTP_PASSWORD = 'ftp-Pa55word!';
const S3 = { region: 'eu-west-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-key-for-tests', bucket: 'imports' };

let api: TestApi;
let https: HttpsFixture;
let ftp: FtpFixture;
let s3: S3Fixture;
let sftp: SftpFixture;
const SFTP_PASSWORD = 'sftp-Pa55word!';
let owner: TestClient;
let appId: string;
const people: Record<string, string> = {};

const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });

/** Waits until the import is no longer new or in progress (a bounded number of looks, no time limit asserted). */
async function settled(client: TestClient, id: string): Promise<Task> {
  for (let i = 0; i < 400; i++) {
    const { task } = await client.ok<{ task: Task }>('getImportTask', undefined, p({ taskId: id }));
    if (task.status !== 'new' && task.status !== 'in_progress') return task;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${id} did not finish`);
}

async function createImport(client: TestClient, body: Record<string, unknown>): Promise<Task> {
  return (await client.ok<{ task: Task }>('createImportTask', body, p())).task;
}

const members = async (audienceId: string) =>
  (await api.db.query<{ customer_id: string }>(
    `SELECT p.customer_id FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id WHERE m.audience_id = $1 ORDER BY 1`, [audienceId],
  )).rows.map((r) => r.customer_id);

const audience = async (id: string) => (await owner.ok<{ audience: Audience }>('getAudience', undefined, p({ audienceId: id }))).audience;

beforeAll(async () => {
  const csv = `customer_id,email\n${KNOWN.slice(0, 3).map((c) => `${c},${c}@x.com`).join('\n')}\nnobody,n@x.com\n`;
  https = await startHttpsServer({
    '/people.csv': csv,
    '/to-private': (_req, res) => res.writeHead(302, { location: 'http://10.0.0.1/people.csv' }).end(),
    '/missing.csv': (_req, res) => res.writeHead(404).end(),
  });
  const root = await mkdtemp(path.join(tmpdir(), 'gd-ftp-'));
  await writeFile(path.join(root, 'people.csv'), `customerId\n${KNOWN.join('\n')}\n`);
  ftp = await startFtpServer({ root, user: 'importer', password: FTP_PASSWORD });
  s3 = await startS3Server({ ...S3, objects: { [`${S3.bucket}/exports/people list.csv`]: `id\nc-2\nc-4\n` } });
  sftp = await startSftpServer({ user: 'importer', password: SFTP_PASSWORD, files: { '/exports/people.csv': 'customerId,plan\r\nc-1,gold\r\nc-4,free\r\nghost,none\r\n' } });
  api = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', OUTGOING_EXTRA_CA_FILE: https.caFile, JOB_QUEUE: queue() });
  ({ client: owner } = await registerAccount(api));
  appId = (await createTestApp(owner)).id;
  const seed = seeder(api.db, appId);
  for (const c of KNOWN) people[c] = await seed.person({ customer_id: c, email: `${c}@x.com` });
  await seed.device(people['c-1']!, { key: 'device-key-1' });
  await api.db.query(`UPDATE devices SET idfa = 'IDFA-2' WHERE app_id = $1 AND device_key = 'device-key-1'`, [appId]);
  await seed.device(people['c-3']!, { key: 'device-key-3' });
});

afterAll(async () => {
  await api?.stop();
  await Promise.all([https?.close(), ftp?.close(), s3?.close(), sftp?.close()]);
});

describe('CSV imports', () => {
  it('imports inline CSV content into a new audience, counting rows that match nobody', async () => {
    const created = await createImport(owner, { name: 'Inline buyers', source: { type: 'csv', csvContent: 'customer_id\nc-1\nc-2\nghost\nc-2\n' } });
    expect(created.status).toBe('new');
    expect(created.hasUpload).toBe(true);
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2, errorName: null, progress: { rowsRead: 4, rowsMatched: 3, rowsUnmatched: 1 } });
    expect(task.warning).toMatch(/1 of 4 rows matched nobody/);
    expect(await members(task.audienceId!)).toEqual(['c-1', 'c-2']);
    expect(await audience(task.audienceId!)).toMatchObject({ status: 'ready', personCount: 2, errorName: null });
  });

  it('fails a malformed CSV with CsvSyntaxError and its line, storing nothing and keeping the previous members', async () => {
    const first = await settled(owner, (await createImport(owner, { name: 'Refilled', source: { type: 'csv', csvContent: 'customer_id\nc-3\nc-4\n' } })).id);
    expect(first.status).toBe('ready');
    const audienceId = first.audienceId!;
    const created = await createImport(owner, {
      name: 'Refill broken', audienceId, source: { type: 'csv', csvContent: 'customer_id,email\nc-1,a\nc-2,b\n"c-3,c\nc-4,d\n' },
    });
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'error', errorName: 'CsvSyntaxError', personCount: null });
    expect(task.errorLine).toBeGreaterThanOrEqual(4);
    expect(task.errorMessage).toContain(`line ${task.errorLine}`);
    expect(await members(audienceId)).toEqual(['c-3', 'c-4']);
    expect(await audience(audienceId)).toMatchObject({ status: 'error', errorName: 'CsvSyntaxError', personCount: 2 });
    const staged = await api.db.query('SELECT 1 FROM import_rows WHERE task_id = $1', [task.id]);
    expect(staged.rowCount).toBe(0);

    // A later good import replaces the members atomically and clears the error.
    const again = await settled(owner, (await createImport(owner, { name: 'Refill good', audienceId, source: { type: 'csv', csvContent: 'customer_id\nc-1\n' } })).id);
    expect(again.status).toBe('ready');
    expect(await members(audienceId)).toEqual(['c-1']);
    expect(await audience(audienceId)).toMatchObject({ status: 'ready', personCount: 1, errorName: null });
  });

  it('takes an uploaded file (csv dynamic with device ids, any of the device id columns) and waits for it', async () => {
    const created = await createImport(owner, { name: 'Devices', awaitUpload: true, source: { type: 'csv_dynamic', csvIdType: 'deviceId' } });
    expect(created.status).toBe('new');
    const { task: waiting } = await owner.ok<{ task: Task }>('getImportTask', undefined, p({ taskId: created.id }));
    expect(waiting.status).toBe('new');
    const res = await fetch(`${api.url}/api/apps/${appId}/import-tasks/${created.id}/upload`, {
      method: 'POST', body: 'name,device_id\nx,device-key-3\ny,IDFA-2\nz,unknown-device\n',
      headers: { 'content-type': 'text/csv', cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': owner.cookies.get('gd_csrf') ?? '' },
    });
    expect(((await res.json()) as { status: string }).status).toBe('OK');
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2, hasUpload: true, progress: { rowsRead: 3, rowsMatched: 2, rowsUnmatched: 1 } });
    expect(await members(task.audienceId!)).toEqual(['c-1', 'c-3']);
  });

  it('resolves {product}Id to people ids', async () => {
    const csv = `id\n${people['c-2']}\n${people['c-4']}\n999999999999\nnot-a-number\n`;
    const task = await settled(owner, (await createImport(owner, { name: 'By person id', source: { type: 'csv_dynamic', csvIdType: '{product}Id', csvContent: csv } })).id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2, progress: { rowsUnmatched: 2 } });
    expect(await members(task.audienceId!)).toEqual(['c-2', 'c-4']);
  });
});

describe('network imports on loopback', () => {
  it('imports over HTTPS from a server whose certificate the configuration trusts', async () => {
    const created = await createImport(owner, { name: 'Over HTTPS', source: { type: 'https', httpsIdType: 'customerId', httpsFileUrl: `${https.url}/people.csv` } });
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 3, progress: { rowsRead: 4, rowsUnmatched: 1 } });
    expect(task.progress.bytesTotal).toBe(task.progress.bytesRead);
    expect(await members(task.audienceId!)).toEqual(['c-1', 'c-2', 'c-3']);
  });

  it('names a missing file CopyImportFileError', async () => {
    const task = await settled(owner, (await createImport(owner, { name: 'Missing', source: { type: 'https', httpsIdType: 'customerId', httpsFileUrl: `${https.url}/missing.csv` } })).id);
    expect(task).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    expect(task.errorMessage).toContain('HTTP 404');
  });

  it('refuses a redirect to a private address before connecting', async () => {
    const task = await settled(owner, (await createImport(owner, { name: 'Redirected', source: { type: 'https', httpsIdType: 'customerId', httpsFileUrl: `${https.url}/to-private` } })).id);
    expect(task).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    expect(task.errorMessage).toContain('10.0.0.1 is a private address');
  });

  it('imports over FTP with a login; the password is stored sealed and never answered', async () => {
    const created = await createImport(owner, {
      name: 'Over FTP', source: { type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: ftp.port, ftpUsername: 'importer', ftpPassword: FTP_PASSWORD, ftpFileRoute: '/people.csv' },
    });
    expect(created.hasPassword).toBe(true);
    expect(JSON.stringify(created)).not.toContain(FTP_PASSWORD);
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 4, config: { type: 'ftp', ftpPort: ftp.port, isSecureFtp: false } });
    expect(await members(task.audienceId!)).toEqual(KNOWN);
    const { tasks } = await owner.ok<{ tasks: Task[] }>('listImportTasks', undefined, p());
    expect(JSON.stringify(tasks)).not.toContain(FTP_PASSWORD);
    const stored = (await api.db.query<{ config: unknown; secret: Buffer }>('SELECT config, secret FROM import_tasks WHERE id = $1', [created.id])).rows[0]!;
    expect(JSON.stringify(stored.config)).not.toContain(FTP_PASSWORD);
    expect(stored.secret.includes(Buffer.from(FTP_PASSWORD))).toBe(false);
  });

  it('fails an FTP login with the wrong password as CopyImportFileError; a new password fixes it', async () => {
    const source = { type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: ftp.port, ftpUsername: 'importer', ftpPassword: 'wrong', ftpFileRoute: '/people.csv' };
    const task = await settled(owner, (await createImport(owner, { name: 'FTP wrong password', source })).id);
    expect(task).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    // Editing without a password keeps the stored one; with one, replaces it.
    const { ftpPassword: _omit, ...withoutPassword } = source;
    const kept = await owner.ok<{ task: Task }>('updateImportTask', { source: withoutPassword }, p({ taskId: task.id }));
    expect(kept.task.hasPassword).toBe(true);
    await owner.ok('updateImportTask', { source: { ...source, ftpPassword: FTP_PASSWORD } }, p({ taskId: task.id }));
    await owner.ok('retryImportTask', undefined, p({ taskId: task.id }));
    expect(await settled(owner, task.id)).toMatchObject({ status: 'ready', personCount: 4 });
  });

  it('imports over SFTP (isSecureFtp) with a login from a server on loopback', async () => {
    const created = await createImport(owner, {
      name: 'Over SFTP', source: {
        type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: sftp.port, ftpUsername: 'importer', ftpPassword: SFTP_PASSWORD,
        ftpFileRoute: '/exports/people.csv', isSecureFtp: true,
      },
    });
    expect(created.hasPassword).toBe(true);
    const task = await settled(owner, created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2, config: { type: 'ftp', isSecureFtp: true }, progress: { rowsRead: 3, rowsMatched: 2, rowsUnmatched: 1 } });
    expect(task.progress.bytesTotal).toBe(task.progress.bytesRead);
    expect(await members(task.audienceId!)).toEqual(['c-1', 'c-4']);
    expect(sftp.logins.at(-1)).toEqual({ user: 'importer', accepted: true });
    expect(sftp.reads).toContain('/exports/people.csv');
  });

  it('fails an SFTP login with the wrong password, or a missing file, as CopyImportFileError', async () => {
    const source = { type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: sftp.port, ftpUsername: 'importer', ftpPassword: 'wrong', ftpFileRoute: '/exports/people.csv', isSecureFtp: true };
    const refused = await settled(owner, (await createImport(owner, { name: 'SFTP wrong password', source })).id);
    expect(refused).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    expect(refused.errorMessage).toContain('over SFTP');
    expect(sftp.logins.at(-1)).toEqual({ user: 'importer', accepted: false });
    const missing = await settled(owner, (await createImport(owner, { name: 'SFTP missing', source: { ...source, ftpPassword: SFTP_PASSWORD, ftpFileRoute: '/nope.csv' } })).id);
    expect(missing).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    expect(missing.errorMessage).toContain('/nope.csv');
  });

  it('imports from S3-compatible storage with a signed request', async () => {
    const { integration } = await owner.ok<{ integration: Record<string, unknown> }>('createStorageIntegration', {
      name: 'Bucket', endpoint: s3.endpoint, region: S3.region, bucket: S3.bucket, accessKeyId: S3.accessKeyId, secretAccessKey: S3.secretAccessKey,
    }, p());
    expect(integration).toMatchObject({ hasSecret: true, accessKeyId: S3.accessKeyId });
    expect(JSON.stringify(integration)).not.toContain(S3.secretAccessKey);
    const task = await settled(owner, (await createImport(owner, {
      name: 'From S3', source: { type: 's3', s3IdType: 'customerId', s3IntegrationId: integration.id, s3FileRoute: 'exports/people list.csv' },
    })).id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2 });
    expect(await members(task.audienceId!)).toEqual(['c-2', 'c-4']);
    expect(s3.requests.at(-1)).toEqual({ path: '/imports/exports/people%20list.csv', signed: true });

    const { integration: wrong } = await owner.ok<{ integration: { id: string } }>('createStorageIntegration', {
      name: 'Wrong key', endpoint: s3.endpoint, region: S3.region, bucket: S3.bucket, accessKeyId: S3.accessKeyId, secretAccessKey: 'not-the-key',
    }, p());
    const refused = await settled(owner, (await createImport(owner, {
      name: 'From S3 wrong key', source: { type: 's3', s3IdType: 'customerId', s3IntegrationId: wrong.id, s3FileRoute: 'exports/people list.csv' },
    })).id);
    expect(refused).toMatchObject({ status: 'error', errorName: 'CopyImportFileError' });
    expect(refused.errorMessage).toContain('HTTP 403');
  });
});

describe('SFTP host keys', () => {
  /** A server of these tests' own: they replace its host key. */
  let keyed: SftpFixture;
  beforeAll(async () => {
    keyed = await startSftpServer({ user: 'importer', password: SFTP_PASSWORD, files: { '/people.csv': 'customerId\nc-2\nc-3\n' } });
  });
  afterAll(async () => {
    await keyed?.close();
  });
  const sftpSource = (extra: Record<string, unknown> = {}) => ({
    type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: keyed.port, ftpUsername: 'importer', ftpPassword: SFTP_PASSWORD,
    ftpFileRoute: '/people.csv', isSecureFtp: true, ...extra,
  });
  /** A well-formed fingerprint of no server here. */
  const OTHER_KEY = 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo';
  const storedKey = async (id: string) => (await api.db.query<{ sftp_host_key: string | null }>('SELECT sftp_host_key FROM import_tasks WHERE id = $1', [id])).rows[0]!.sftp_host_key;

  it('pins the key the first login meets; the same server connects again; another key is refused before logging in until the user confirms it', async () => {
    const created = await createImport(owner, { name: 'SFTP first use', source: sftpSource() });
    expect(created.config.ftpHostKeyFingerprint).toBeNull();
    const first = await settled(owner, created.id);
    expect(first).toMatchObject({ status: 'ready', personCount: 2 });
    const pinned = keyed.hostKeyFingerprint;
    expect(first.config.ftpHostKeyFingerprint).toBe(pinned);
    expect(await storedKey(created.id)).toBe(pinned);

    await owner.ok('retryImportTask', undefined, p({ taskId: created.id }));
    expect(await settled(owner, created.id)).toMatchObject({ status: 'ready', personCount: 2, config: { ftpHostKeyFingerprint: pinned } });

    // The same host and port now present another key: refused during the key exchange.
    const replaced = keyed.replaceHostKey();
    const logins = keyed.logins.length;
    const reads = keyed.reads.length;
    await owner.ok('retryImportTask', undefined, p({ taskId: created.id }));
    const refused = await settled(owner, created.id);
    expect(refused).toMatchObject({ status: 'error', errorName: 'CopyImportFileError', attempts: 1, config: { ftpHostKeyFingerprint: pinned } });
    expect(refused.errorMessage).toContain(`presented the host key ${replaced}, but ${pinned} is pinned`);
    expect(refused.errorMessage).toContain('confirm the new key: edit this import');
    expect(keyed.logins).toHaveLength(logins); // no password was sent
    expect(keyed.reads).toHaveLength(reads);
    expect(await members(created.audienceId!)).toEqual(['c-2', 'c-3']);
    expect(await storedKey(created.id)).toBe(pinned);

    // Forgetting the key (null): the next login pins the new one.
    const { ftpPassword: _password, ...withoutPassword } = sftpSource();
    const { task: forgotten } = await owner.ok<{ task: Task }>('updateImportTask', { source: { ...withoutPassword, ftpHostKeyFingerprint: null } }, p({ taskId: created.id }));
    expect(forgotten.config.ftpHostKeyFingerprint).toBeNull();
    await owner.ok('retryImportTask', undefined, p({ taskId: created.id }));
    expect(await settled(owner, created.id)).toMatchObject({ status: 'ready', config: { ftpHostKeyFingerprint: replaced } });
  });

  it('takes a fingerprint in advance: another one is refused without logging in, the server\'s own runs', async () => {
    const logins = keyed.logins.length;
    const wrong = await settled(owner, (await createImport(owner, { name: 'SFTP wrong key', source: sftpSource({ ftpHostKeyFingerprint: OTHER_KEY }) })).id);
    expect(wrong).toMatchObject({ status: 'error', errorName: 'CopyImportFileError', attempts: 1, personCount: null });
    expect(wrong.errorMessage).toContain(`presented the host key ${keyed.hostKeyFingerprint}, but ${OTHER_KEY} is pinned`);
    expect(keyed.logins).toHaveLength(logins);
    expect(await storedKey(wrong.id)).toBe(OTHER_KEY);

    // Replacing the pinned fingerprint with the server's confirms it.
    const { ftpPassword: _password, ...withoutPassword } = sftpSource();
    const { task: confirmed } = await owner.ok<{ task: Task }>('updateImportTask', { source: { ...withoutPassword, ftpHostKeyFingerprint: keyed.hostKeyFingerprint } }, p({ taskId: wrong.id }));
    expect(confirmed.config.ftpHostKeyFingerprint).toBe(keyed.hostKeyFingerprint);
    await owner.ok('retryImportTask', undefined, p({ taskId: wrong.id }));
    expect(await settled(owner, wrong.id)).toMatchObject({ status: 'ready', personCount: 2 });

    const right = await settled(owner, (await createImport(owner, { name: 'SFTP right key', source: sftpSource({ ftpHostKeyFingerprint: ` ${keyed.hostKeyFingerprint} ` }) })).id);
    expect(right).toMatchObject({ status: 'ready', personCount: 2, config: { ftpHostKeyFingerprint: keyed.hostKeyFingerprint } });
  });

  it('forgets the pinned key when the host or port changes (unless a new one is given), keeps it otherwise, and refuses malformed or FTP fingerprints', async () => {
    const task = await settled(owner, (await createImport(owner, { name: 'SFTP edits', source: sftpSource({ ftpHostKeyFingerprint: keyed.hostKeyFingerprint }) })).id);
    expect(task.status).toBe('ready');
    const edit = async (source: Record<string, unknown>) => (await owner.ok<{ task: Task }>('updateImportTask', { source }, p({ taskId: task.id }))).task.config.ftpHostKeyFingerprint;
    const { ftpPassword: _password, ...base } = sftpSource();
    expect(await edit({ ...base, ftpFileRoute: '/other.csv', ftpIdType: 'deviceId' })).toBe(keyed.hostKeyFingerprint);
    expect(await edit({ ...base, ftpPort: ftp.port })).toBeNull();
    expect(await edit({ ...base, ftpPort: ftp.port, ftpHostKeyFingerprint: OTHER_KEY })).toBe(OTHER_KEY);
    expect(await edit({ ...base, ftpHostKeyFingerprint: keyed.hostKeyFingerprint })).toBe(keyed.hostKeyFingerprint);
    // Plain FTP has no host key: the pinned one goes, and one given is refused.
    expect(await edit({ ...base, ftpPort: ftp.port, isSecureFtp: false })).toBeNull();
    const ftpKey = await owner.call('updateImportTask', { source: { ...base, ftpPort: ftp.port, isSecureFtp: false, ftpHostKeyFingerprint: OTHER_KEY } }, p({ taskId: task.id }));
    expect(ftpKey.httpStatus).toBe(400);
    expect(ftpKey.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.ftpHostKeyFingerprint', message: 'host_key_sftp_only' }] });

    for (const malformed of ['AAAA', OTHER_KEY.replace('SHA256:', 'MD5:'), `${OTHER_KEY}=`, OTHER_KEY.slice(0, -1), `${OTHER_KEY.slice(0, -1)}B`]) {
      const answer = await owner.call('createImportTask', { name: `Malformed ${malformed}`, source: sftpSource({ ftpHostKeyFingerprint: malformed }) }, p());
      expect(answer.httpStatus).toBe(400);
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.ftpHostKeyFingerprint' }] });
      expect(answer.body.message).toContain('ssh-keygen -lf');
    }
    const { tasks } = await owner.ok<{ tasks: Task[] }>('listImportTasks', undefined, p());
    expect(tasks.filter((t) => t.name.startsWith('Malformed'))).toEqual([]);
  });
});

describe('private addresses', () => {
  it('refuses private and metadata addresses when the import is created', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data', 'http://10.1.2.3/a.csv', 'https://[::ffff:192.168.1.1]/a.csv', 'https://[fd00:ec2::254]/a.csv']) {
      const answer = await owner.call('createImportTask', { name: `Private ${url}`, source: { type: 'https', httpsIdType: 'customerId', httpsFileUrl: url } }, p());
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.httpsFileUrl' }] });
    }
    const ftpAnswer = await owner.call('createImportTask', {
      name: 'Private FTP', source: { type: 'ftp', ftpIdType: 'customerId', ftpHost: '192.168.0.10', ftpFileRoute: '/a.csv' },
    }, p());
    expect(ftpAnswer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.ftpHost' }] });
    const { tasks } = await owner.ok<{ tasks: Task[] }>('listImportTasks', undefined, p());
    expect(tasks.filter((t) => t.name.startsWith('Private'))).toEqual([]);
  });

  it('refuses the loopback test server itself when the allow-list is not configured', async () => {
    const strict = await startTestApi({ JOB_QUEUE: queue(), OUTGOING_EXTRA_CA_FILE: https.caFile });
    try {
      const { client } = await registerAccount(strict);
      const app = await createTestApp(client);
      const answer = await client.call('createImportTask', {
        name: 'Loopback', source: { type: 'https', httpsIdType: 'customerId', httpsFileUrl: `${https.url}/people.csv` },
      }, { appId: app.id });
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.httpsFileUrl', message: 'private_address' }] });
      expect(answer.body.message).toContain('file addresses must be public');
      const urlAnswer = await client.call('createImportTask', { name: 'Loopback csv url', source: { type: 'csv', csvFileURL: `ftp://127.0.0.1:${ftp.port}/people.csv` } }, { appId: app.id });
      expect(urlAnswer.body).toMatchObject({ status: 'KO', details: [{ path: 'source.csvFileURL' }] });
    } finally {
      await strict.stop();
    }
  });
});

describe('permissions and lifecycle', () => {
  it('needs ui:importTask.create to create and ui:importTask.delete to delete', async () => {
    const analyst = await addMember(api, owner, 'analyst');
    const listed = await analyst.call('listImportTasks', undefined, p());
    expect(listed.body.status).toBe('OK');
    const refused = await analyst.call('createImportTask', { name: 'Nope', source: { type: 'csv', csvContent: 'customer_id\nc-1\n' } }, p());
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    const task = await settled(owner, (await createImport(owner, { name: 'To delete', source: { type: 'csv', csvContent: 'customer_id\nc-1\n' } })).id);
    expect((await analyst.call('deleteImportTask', undefined, p({ taskId: task.id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    await owner.ok('deleteImportTask', undefined, p({ taskId: task.id }));
    expect((await owner.call('getImportTask', undefined, p({ taskId: task.id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    const chunks = await api.db.query('SELECT 1 FROM stored_file_chunks WHERE file_id = $1', [task.id]);
    expect(chunks.rowCount).toBe(0);
  });

  it('refuses an import into a segment audience or an audience of another app', async () => {
    const other = await createTestApp(owner);
    const foreign = await seeder(api.db, other.id).audience((await owner.ok<{ user: { accountId: string } }>('meta')).user.accountId, 'Foreign', []);
    const answer = await owner.call('createImportTask', { name: 'Into foreign', audienceId: foreign, source: { type: 'csv', csvContent: 'customer_id\nc-1\n' } }, p());
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'audienceId' }] });
  });
});
