/**
 * Where an import's file comes from, as a byte stream (never loaded whole): an uploaded file
 * (stored chunks), an http(s) or ftp URL, an FTP or SFTP server, or S3-compatible object storage.
 * Every network source connects through the outgoing connection module (`net/`), which checks the
 * address each connection goes to when it connects (redirects and FTP data connections included),
 * and every download is limited: connecting, silence, the whole download (FILE_LIMITS) and the
 * file's size (IMPORT_LIMITS.uploadMaxBytes, as for uploads). Failures are CopyImportFileError,
 * recoverable when they look like network trouble or a server-side (5xx, 429, FTP 4xx) answer.
 *
 * SFTP host keys are pinned (net/fileServers.ts): with a fingerprint on the import, a server
 * presenting another key is refused before logging in, a CopyImportFileError that is not retried
 * and says what to do; without one, `onFirstHostKey` records the key the first login met (run.ts).
 */
import { PassThrough, Writable, type Readable } from 'node:stream';
import { AwsV4Signer } from 'aws4fetch';
import { IMPORT_LIMITS } from '@gd/shared';
import { FTPError, HostKeyMismatch, connectFtp, connectSftp, guardedRequest, limitedStream, type NetPolicy } from '../../net/index.ts';
import { ImportFailure, copyFailure } from './errors.ts';

export interface SourceStream { stream: Readable; bytesTotal: number | null }

/** Limits of a download (tests make them small). */
export interface FileLimits { connectTimeoutMs: number; idleMs: number; totalMs: number; maxBytes: number }

export const FILE_LIMITS: FileLimits = { connectTimeoutMs: 15_000, idleMs: 60_000, totalMs: 30 * 60_000, maxBytes: IMPORT_LIMITS.uploadMaxBytes };

export interface NetOptions {
  /** What the connections may reach and trust (net/policy.ts). */
  policy: NetPolicy;
  signal?: AbortSignal | undefined;
  limits?: Partial<FileLimits>;
}

const limitsOf = (net: NetOptions): FileLimits => ({ ...FILE_LIMITS, ...net.limits });

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

/** GET over http(s), following up to 3 redirects (each target checked again when connecting). */
export async function httpSource(urlText: string, net: NetOptions, headers: Record<string, string> = {}): Promise<SourceStream> {
  const url = new URL(urlText);
  const limits = limitsOf(net);
  let res;
  try {
    res = await guardedRequest(url, net.policy, {
      headers, signal: net.signal, maxRedirects: MAX_REDIRECTS,
      connectTimeoutMs: limits.connectTimeoutMs, idleMs: limits.idleMs, totalMs: limits.totalMs, maxBytes: limits.maxBytes,
    });
  } catch (error) {
    throw copyFailure(error, `downloading ${url.host}${url.pathname} failed`);
  }
  if (res.status !== 200) {
    // Close the connection rather than drain the body: an error page may be huge or endless.
    res.body.destroy();
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${res.url.host}${res.url.pathname} answered HTTP ${res.status}`, {
      recoverable: res.status >= 500 || res.status === 429 || res.status === 408,
    });
  }
  return { stream: heeded(res.body), bytesTotal: res.length };
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

export interface FtpLocation {
  host: string; port: number; username: string; password: string; route: string; secure: boolean;
  /** SFTP: the pinned host key fingerprint (null or absent: none pinned yet). */
  hostKeyFingerprint?: string | null | undefined;
  /** SFTP without a pinned key: called with the key the server presented once the login succeeded, before reading. */
  onFirstHostKey?: ((fingerprint: string) => Promise<void>) | undefined;
}

const FTP_TRANSIENT = new Set([421, 425, 426, 450, 451, 452]);

/** FTP (RETR) or, when `secure`, SFTP. */
export function ftpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  return loc.secure ? sftpSource(loc, net) : plainFtpSource(loc, net);
}

async function plainFtpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  const limits = limitsOf(net);
  let client;
  try {
    // basic-ftp has one timeout, for every silence of the control and data connections (connecting included).
    client = await connectFtp(net.policy, { host: loc.host, port: loc.port, username: loc.username, password: loc.password, timeoutMs: limits.idleMs });
  } catch (error) {
    throw ftpFailure(error, `connecting to ${loc.host}:${loc.port}`);
  }
  const ftp = client;
  const size = await ftp.size(loc.route).catch(() => null);
  if (size !== null && size > limits.maxBytes) {
    ftp.close();
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${loc.route} has ${size} bytes; at most ${limits.maxBytes} are taken`);
  }
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
  const limited = heeded(limitedStream(out, { maxBytes: limits.maxBytes, totalMs: limits.totalMs, what: `downloading ${loc.route}` }));
  limited.once('close', () => { if (!out.destroyed) out.destroy(); });
  out.once('close', () => { if (!ftp.closed) ftp.close(); });
  ftp.downloadTo(sink, loc.route).then(
    () => out.end(),
    (error: unknown) => out.destroy(ftpFailure(error, `downloading ${loc.route}`)),
  ).finally(() => ftp.close());
  return { stream: limited, bytesTotal: size };
}

function ftpFailure(error: unknown, what: string): ImportFailure {
  if (error instanceof FTPError) {
    return new ImportFailure('CopyImportFileError', `CopyImportFileError: ${what}: FTP ${error.code} ${error.message}`, { recoverable: FTP_TRANSIENT.has(error.code), cause: error });
  }
  return copyFailure(error, what);
}

async function sftpSource(loc: FtpLocation, net: NetOptions): Promise<SourceStream> {
  const limits = limitsOf(net);
  let connection;
  try {
    connection = await connectSftp(net.policy, {
      host: loc.host, port: loc.port, username: loc.username, password: loc.password, timeoutMs: limits.connectTimeoutMs, signal: net.signal,
      hostKeyFingerprint: loc.hostKeyFingerprint,
    });
  } catch (error) {
    if (error instanceof HostKeyMismatch) {
      throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${error.message}. If the server's key was changed on purpose, confirm the new key: edit this import and forget or replace its host key fingerprint; otherwise someone may be intercepting the connection`, { cause: error });
    }
    throw copyFailure(error, `connecting to ${loc.host}:${loc.port} over SFTP`);
  }
  const client = connection.sftp;
  if (!loc.hostKeyFingerprint && loc.onFirstHostKey) {
    try {
      await loc.onFirstHostKey(connection.hostKeyFingerprint);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }
  try {
    const stat = await client.stat(loc.route);
    if (stat.size > limits.maxBytes) {
      throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${loc.route} has ${stat.size} bytes; at most ${limits.maxBytes} are taken`);
    }
    const raw = heeded(client.createReadStream(loc.route) as unknown as Readable);
    const stream = heeded(limitedStream(raw, { maxBytes: limits.maxBytes, idleMs: limits.idleMs, totalMs: limits.totalMs, what: `reading ${loc.route} over SFTP` }));
    stream.once('close', () => void client.end().catch(() => undefined));
    return { stream, bytesTotal: stat.size };
  } catch (error) {
    await client.end().catch(() => undefined);
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
