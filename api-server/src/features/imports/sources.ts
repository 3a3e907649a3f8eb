/**
 * Where an import's file comes from, as a byte stream (never loaded whole): an uploaded file
 * (stored chunks), an http(s) or ftp URL, an FTP or SFTP server, or S3-compatible object storage.
 * Every network source resolves its host through netGuard first and connects to the checked
 * address. Failures are CopyImportFileError, recoverable when they look like network trouble or a
 * server-side (5xx, 429, FTP 4xx) answer.
 *
 * SFTP host keys are not pinned (nothing stores a known host key yet): the connection is
 * encrypted but the server is not authenticated.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { BlockList } from 'node:net';
import { AwsV4Signer } from 'aws4fetch';
import { Client as FtpClient, FTPError } from 'basic-ftp';
import SftpClient from 'ssh2-sftp-client';
import { ImportFailure, copyFailure } from './errors.ts';
import { pinnedLookup, resolvePublic } from './netGuard.ts';

export interface SourceStream { stream: Readable; bytesTotal: number | null }

export interface NetOptions {
  /** Addresses let through despite being private (tests only). */
  allow?: BlockList | undefined;
  /** Extra trusted certificate authorities (PEM), added to the system's (tests, private CAs). */
  extraCa?: string | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
}

/**
 * A source stream can fail before the import starts reading it (an FTP server refusing the file at
 * once, a connection reset while the task records its progress). The consumer still learns the
 * failure from the stream itself (pipeline and async iteration read `errored`); until it attaches,
 * this listener keeps the failure from being an uncaught exception, which would end the process
 * that serves every account.
 */
export function heeded<T extends Readable>(stream: T): T {
  stream.on('error', () => undefined);
  return stream;
}

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function request(url: URL, net: NetOptions, headers: Record<string, string>): Promise<IncomingMessage> {
  return resolvePublic(url.hostname, net.allow).then((resolved) => new Promise<IncomingMessage>((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const options: https.RequestOptions = {
      method: 'GET', agent: false, lookup: pinnedLookup(resolved), timeout: net.timeoutMs ?? 30_000,
      headers: { 'user-agent': 'Growthdeck-Import/1', accept: '*/*', ...headers },
      ...(net.signal ? { signal: net.signal } : {}),
      ...(secure && net.extraCa ? { ca: [...rootCertificates, net.extraCa] } : {}),
    };
    const req = (secure ? https : http).request(url, options, resolve);
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  }));
}

/** GET over http(s), following up to 3 redirects (each target checked again). */
export async function httpSource(urlText: string, net: NetOptions, headers: Record<string, string> = {}): Promise<SourceStream> {
  let url = new URL(urlText);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${url.protocol} is not an http(s) address`);
    }
    let res: IncomingMessage;
    try {
      res = await request(url, net, headers);
    } catch (error) {
      throw copyFailure(error, `downloading ${url.host}${url.pathname} failed`);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location && hop < MAX_REDIRECTS) {
      res.resume();
      url = new URL(res.headers.location, url);
      headers = {};
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${url.host}${url.pathname} answered HTTP ${status}`, {
        recoverable: status >= 500 || status === 429 || status === 408,
      });
    }
    const length = Number(res.headers['content-length']);
    return { stream: heeded(res), bytesTotal: Number.isFinite(length) && length >= 0 ? length : null };
  }
}

export interface S3Location { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string; key: string }

/** S3 GetObject (path-style, signature V4) from any S3-compatible endpoint. */
export async function s3Source(loc: S3Location, net: NetOptions): Promise<SourceStream> {
  const base = loc.endpoint.replace(/\/+$/, '');
  const key = loc.key.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  const signer = new AwsV4Signer({
    url: `${base}/${encodeURIComponent(loc.bucket)}/${key}`, method: 'GET', service: 's3', region: loc.region,
    accessKeyId: loc.accessKeyId, secretAccessKey: loc.secretAccessKey,
  });
  const signed = await signer.sign();
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    if (name !== 'host') headers[name] = value;
  });
  try {
    return await httpSource(signed.url.toString(), net, headers);
  } catch (error) {
    if (error instanceof ImportFailure && /HTTP (403|404)/.test(error.message)) {
      throw new ImportFailure('CopyImportFileError', `${error.message} (check the bucket, the file route and the integration's keys)`);
    }
    throw error;
  }
}

export interface FtpLocation { host: string; port: number; username: string; password: string; route: string; secure: boolean }

const FTP_TRANSIENT = new Set([421, 425, 426, 450, 451, 452]);

/** FTP (RETR) or, when `secure`, SFTP. */
export function ftpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  return loc.secure ? sftpSource(loc, net) : plainFtpSource(loc, net);
}

async function plainFtpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  const resolved = await resolvePublic(loc.host, net.allow);
  const client = new FtpClient(net.timeoutMs ?? 30_000);
  try {
    await client.access({ host: resolved.address, port: loc.port, user: loc.username || 'anonymous', password: loc.password || 'anonymous@', secure: false });
  } catch (error) {
    client.close();
    throw ftpFailure(error, `connecting to ${loc.host}:${loc.port}`);
  }
  const size = await client.size(loc.route).catch(() => null);
  // basic-ftp ends its destination even when the transfer fails: write into a sink that never
  // ends `out`, and end it (or destroy it with the failure) when the transfer settles.
  const out = heeded(new PassThrough());
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (out.destroyed) return callback(new Error('import stopped'));
      if (out.write(chunk)) callback();
      else out.once('drain', () => callback());
    },
  });
  out.once('close', () => { if (!client.closed) client.close(); });
  client.downloadTo(sink, loc.route).then(
    () => out.end(),
    (error: unknown) => out.destroy(ftpFailure(error, `downloading ${loc.route}`)),
  ).finally(() => client.close());
  return { stream: out, bytesTotal: size };
}

function ftpFailure(error: unknown, what: string): ImportFailure {
  if (error instanceof FTPError) {
    return new ImportFailure('CopyImportFileError', `CopyImportFileError: ${what}: FTP ${error.code} ${error.message}`, { recoverable: FTP_TRANSIENT.has(error.code), cause: error });
  }
  return copyFailure(error, what);
}

async function sftpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  const resolved = await resolvePublic(loc.host, net.allow);
  const sftp = new SftpClient('import');
  try {
    await sftp.connect({ host: resolved.address, port: loc.port, username: loc.username, password: loc.password, readyTimeout: net.timeoutMs ?? 30_000 });
  } catch (error) {
    await sftp.end().catch(() => undefined);
    throw copyFailure(error, `connecting to ${loc.host}:${loc.port} over SFTP`);
  }
  try {
    const stat = await sftp.stat(loc.route);
    const stream = heeded(sftp.createReadStream(loc.route) as unknown as Readable);
    stream.once('close', () => void sftp.end().catch(() => undefined));
    return { stream, bytesTotal: stat.size };
  } catch (error) {
    await sftp.end().catch(() => undefined);
    throw copyFailure(error, `reading ${loc.route} over SFTP`);
  }
}

/** An ftp:// file URL: anonymous FTP (credentials are never put in URLs). */
export function ftpUrlSource(urlText: string, net: NetOptions): Promise<SourceStream> {
  const url = new URL(urlText);
  return plainFtpSource({
    host: url.hostname, port: url.port ? Number(url.port) : 21, username: '', password: '', route: decodeURIComponent(url.pathname), secure: false,
  }, net);
}

/** Any file URL of SPEC.md section 5 (http, https, ftp). */
export function urlSource(urlText: string, net: NetOptions): Promise<SourceStream> {
  return new URL(urlText).protocol === 'ftp:' ? ftpUrlSource(urlText, net) : httpSource(urlText, net);
}
