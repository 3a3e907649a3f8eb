/**
 * FTP downloads that fail at once (a PASV answer naming another host, "550 file not found", a data
 * connection refused or reset mid-transfer) end the import as failed with CopyImportFileError and
 * never end the process: the failure can land before the import reads the stream (an unheeded
 * stream error is an uncaught exception, and the process also serves the API, the sync server and
 * the worker). Each case runs several times, since the window is a matter of timing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportConfig } from '@gd/shared';
import type { NetPolicy } from '../../net/index.ts';
import { claimJob } from '../../jobs/runner.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { seeder } from '../segments/testing/data.ts';
import { allowList } from './netGuard.ts';
import { insertTask } from './repository.ts';
import { importJobKind, runImport } from './run.ts';
import { startRogueFtpServer, type RogueFtpMode } from './testing/servers.ts';

let api: TestApi;
let owner: TestClient;
let accountId: string;
let userId: string;
let appId: string;
let anaId: string;

const deps = (net: NetPolicy = { allow: allowList('127.0.0.1,127.0.0.2') }) => ({ db: api.db, log: api.deps.log, secret: api.deps.secret, net, retryBaseSeconds: 0 });

beforeAll(async () => {
  api = await startTestApi({ JOB_QUEUE: `it-ftp-failures-${randomBytes(4).toString('hex')}` });
  ({ client: owner, accountId, userId } = await registerAccount(api));
  appId = (await createTestApp(owner)).id;
  anaId = await seeder(api.db, appId).person({ customer_id: 'ana' });
});
afterAll(async () => {
  await api?.stop();
});

/** Runs one FTP import task (one attempt) against `port` to its end; answers the task row. */
async function runFtpImport(port: number, net?: NetPolicy, over: Record<string, unknown> = {}) {
  const audienceId = await seeder(api.db, appId).audience(accountId, `Ftp ${randomBytes(3).toString('hex')}`, [anaId]);
  const id = randomUUID();
  const queue = `held-${randomBytes(4).toString('hex')}`;
  const config = { type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: port, ftpUsername: 'u', ftpFileRoute: '/people.csv', isSecureFtp: false, ...over } as unknown as ImportConfig;
  await insertTask(api.db, { id, accountId, appId, audienceId, name: 'ftp', type: 'ftp', config, secret: null, hasUpload: false, queue, runNow: true, maxAttempts: 1, createdBy: userId });
  const job = await claimJob(api.db, importJobKind(deps(net)), queue, 'w1');
  await runImport(deps(net), job!, { workerId: 'w1', signal: new AbortController().signal, renew: () => Promise.resolve(true) });
  // Give a late stream or socket error the time to surface as an uncaught exception.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const row = (await api.db.query<{ status: string; error_name: string | null; error_message: string | null }>(
    'SELECT status, error_name, error_message FROM import_tasks WHERE id = $1', [id])).rows[0]!;
  const members = (await api.db.query('SELECT 1 FROM audience_members WHERE audience_id = $1', [audienceId])).rowCount;
  return { ...row, members };
}

describe('FTP downloads that fail at once', () => {
  const modes: RogueFtpMode[] = ['pasv-other-host', 'retr-550', 'data-refused', 'reset-mid-transfer'];
  for (const mode of modes) {
    it(`${mode}: the task fails with CopyImportFileError, the audience keeps its members, the server keeps answering`, async () => {
      const rogue = await startRogueFtpServer(mode);
      try {
        for (let i = 0; i < 6; i++) {
          const task = await runFtpImport(rogue.port);
          expect(task.status).toBe('error');
          expect(`${task.error_name}: ${task.error_message}`).toContain('CopyImportFileError');
          expect(task.members).toBe(1);
        }
      } finally {
        await rogue.close();
      }
      expect((await owner.ok<{ tasks: unknown[] }>('listImportTasks', undefined, { appId })).tasks).toBeDefined();
    });
  }
});

describe('FTP and SFTP connections go to checked addresses only', () => {
  it('resolves an FTP or SFTP host when connecting and refuses a private answer', async () => {
    // The name resolved to a public address when the import was saved; now it answers a private one.
    const rebound: NetPolicy = { allow: allowList('127.0.0.1'), resolve: () => Promise.resolve([{ address: '10.0.0.5', family: 4 }]) };
    for (const isSecureFtp of [false, true]) {
      const task = await runFtpImport(2121, rebound, { ftpHost: 'files.example.com', isSecureFtp });
      expect(task).toMatchObject({ status: 'error', error_name: 'CopyImportFileError', members: 1 });
      expect(task.error_message).toContain('files.example.com is a private address (10.0.0.5)');
    }
  });
});
