/**
 * Import sources on the outgoing connection module, against real servers on loopback: downloads
 * stay within their limits (size announced or not, silence), over HTTPS, FTP and SFTP, and fail as
 * CopyImportFileError; a source only reaches loopback through the explicit allow list.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowList, type NetPolicy } from '../../net/index.ts';
import { identifierBatches } from './csv.ts';
import { ImportFailure } from './errors.ts';
import { ftpSource, httpSource, type NetOptions } from './sources.ts';
import { startFtpServer, startHttpsServer, startSftpServer, type FtpFixture, type HttpsFixture, type SftpFixture } from './testing/servers.ts';

const BIG = `customerId\n${Array.from({ length: 400 }, (_, i) => `c-${i}`).join('\n')}\n`;

/** How the endless error answer ended: closed by the client, or by the server's own bound. */
interface EndlessEnd { closedByClient: boolean; sent: number }
let endlessEnded: (end: EndlessEnd) => void = () => undefined;
/** Where the endless answer stops by itself (more than every buffer between the two ends holds). */
const ENDLESS_BOUND = 256 * 1024 * 1024;

let https: HttpsFixture;
let ftp: FtpFixture;
let sftp: SftpFixture;
let policy: NetPolicy;
beforeAll(async () => {
  https = await startHttpsServer({
    '/big.csv': BIG,
    '/chunked.csv': (_req, res) => { res.writeHead(200, { 'content-type': 'text/csv' }); res.end(BIG); },
    '/stalls.csv': (_req, res) => { res.writeHead(200); res.write('customerId\nc-1\n'); },
    // A hostile server: an error answer with a body that goes on (up to the bound) as long as it is read.
    '/error.csv': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'e');
      let sent = 0;
      const pump = () => {
        while (sent < ENDLESS_BOUND && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end(() => endlessEnded({ closedByClient: false, sent }));
      };
      res.once('close', () => { if (!res.writableFinished) endlessEnded({ closedByClient: true, sent }); });
      pump();
    },
  });
  const root = await mkdtemp(path.join(tmpdir(), 'gd-ftp-limits-'));
  await writeFile(path.join(root, 'big.csv'), BIG);
  ftp = await startFtpServer({ root, user: 'u', password: 'p' });
  sftp = await startSftpServer({ user: 'u', password: 'p', files: { '/big.csv': BIG, '/small.csv': 'customerId\nc-1\nc-2\n' } });
  policy = { allow: allowList('127.0.0.1'), extraCa: readFileSync(https.caFile, 'utf8') };
  // Three servers and two key pairs: generous on a loaded machine (CI once passed the default 10 s).
}, 60_000);
afterAll(async () => {
  await Promise.all([https?.close(), ftp?.close(), sftp?.close()]);
});

async function failure(work: () => Promise<unknown>): Promise<ImportFailure> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ImportFailure) return error;
    throw error;
  }
  throw new Error('no failure');
}

/** Opens the source and reads all of its identifiers (as an import does). */
async function readAll(open: () => Promise<{ stream: Readable }>): Promise<string[]> {
  const { stream } = await open();
  const rows: string[] = [];
  for await (const batch of identifierBatches(stream, { idType: 'customerId', batchRows: 100 })) rows.push(...batch);
  return rows;
}

const net = (limits: NetOptions['limits'] = {}): NetOptions => ({ policy, limits });
const ftpAt = (port: number, route: string, secure: boolean) => ({ host: '127.0.0.1', port, username: 'u', password: 'p', route, secure });

describe('download limits', () => {
  it('takes a file within the limit over HTTPS, FTP and SFTP', async () => {
    const limits = { maxBytes: BIG.length };
    expect(await readAll(() => httpSource(`${https.url}/big.csv`, net(limits)))).toHaveLength(400);
    expect(await readAll(() => ftpSource(ftpAt(ftp.port, '/big.csv', false), net(limits)))).toHaveLength(400);
    expect(await readAll(() => ftpSource(ftpAt(sftp.port, '/big.csv', true), net(limits)))).toHaveLength(400);
  });

  it('refuses a larger file before reading it when its size is known, and while reading when not', async () => {
    const limits = { maxBytes: 1000 };
    for (const open of [
      () => httpSource(`${https.url}/big.csv`, net(limits)),
      () => ftpSource(ftpAt(ftp.port, '/big.csv', false), net(limits)),
      () => ftpSource(ftpAt(sftp.port, '/big.csv', true), net(limits)),
    ]) {
      const error = await failure(open);
      expect(error).toMatchObject({ kind: 'CopyImportFileError', recoverable: false });
      expect(error.message).toMatch(/1000/);
    }
    // Sent without a Content-Length: the stream fails once it passes the limit.
    const error = await failure(() => readAll(() => httpSource(`${https.url}/chunked.csv`, net(limits))));
    expect(error).toMatchObject({ kind: 'CopyImportFileError', recoverable: false });
    expect(error.message).toContain('more than 1000 bytes');
  });

  it('fails a download whose server goes silent, as a failure another try may pass', async () => {
    const error = await failure(() => readAll(() => httpSource(`${https.url}/stalls.csv`, net({ idleMs: 200 }))));
    expect(error).toMatchObject({ kind: 'CopyImportFileError', recoverable: true });
    expect(error.message).toContain('took longer than 200 ms');
  });

  it('fails on an error answer without downloading its body', async () => {
    const endless = new Promise<EndlessEnd>((resolve) => { endlessEnded = resolve; });
    // The size limit is past the server's bound: only closing the connection stops the body.
    const error = await failure(() => httpSource(`${https.url}/error.csv`, net({ maxBytes: 2 * ENDLESS_BOUND })));
    expect(error).toMatchObject({ kind: 'CopyImportFileError', recoverable: true });
    expect(error.message).toBe(`CopyImportFileError: 127.0.0.1:${new URL(https.url).port}/error.csv answered HTTP 500`);
    const ended = await endless;
    expect(ended.closedByClient).toBe(true);
    expect(ended.sent).toBeLessThan(ENDLESS_BOUND);
  });

  it('reaches the loopback servers only through the allow list', async () => {
    const strict: NetOptions = { policy: { allow: allowList(undefined), extraCa: policy.extraCa } };
    for (const open of [
      () => httpSource(`${https.url}/big.csv`, strict),
      () => ftpSource(ftpAt(ftp.port, '/big.csv', false), strict),
      () => ftpSource(ftpAt(sftp.port, '/small.csv', true), strict),
    ]) {
      const error = await failure(open);
      expect(error.message).toContain('127.0.0.1 is a private address');
      expect(error.message).toContain('file addresses must be public');
    }
  });
});
