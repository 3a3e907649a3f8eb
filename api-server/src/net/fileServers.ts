/**
 * FTP and SFTP clients whose every connection goes to a checked address (socket.ts).
 *
 * - FTP (basic-ftp): the control and every data connection are made by `guardedSocket`. basic-ftp
 *   itself sends data connections to the control connection's address whatever a PASV answer names
 *   (EPSV names a port only), so they go to the address checked for the control connection, and
 *   are checked again. basic-ftp makes its sockets through `FTPContext._newSocket` (documented
 *   there as replaceable); the FTP tests (a host name resolving to a private address) fail if
 *   that changes.
 * - SFTP (ssh2): the TCP connection is made by `guardedConnect` and handed over as `sock`.
 *   Host keys are not pinned (nothing stores a known host key yet): the connection is encrypted but
 *   the server is not authenticated.
 */
import type { Socket } from 'node:net';
import { Client as FtpClient, FTPError } from 'basic-ftp';
import SftpClient from 'ssh2-sftp-client';
import type { NetPolicy } from './policy.ts';
import { guardedConnect, guardedSocket } from './socket.ts';

export { FTPError };
export type { FtpClient, SftpClient };

export interface FileServerLogin {
  host: string; port: number; username: string; password: string; timeoutMs?: number; signal?: AbortSignal | undefined;
  /** SFTP only: log in with this private key (OpenSSH or PEM) instead of the password. */
  privateKey?: string | undefined;
}

/** A logged-in FTP client (plain FTP; anonymous when no username is given). */
export async function connectFtp(policy: NetPolicy, login: FileServerLogin): Promise<FtpClient> {
  const client = new FtpClient(login.timeoutMs ?? 30_000);
  (client.ftp as unknown as { _newSocket: () => Socket })._newSocket = () => guardedSocket(policy);
  try {
    await client.access({
      host: login.host.replace(/^\[|\]$/g, ''), port: login.port, user: login.username || 'anonymous', password: login.password || 'anonymous@', secure: false,
    });
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}

/** A logged-in SFTP client. */
export async function connectSftp(policy: NetPolicy, login: FileServerLogin): Promise<SftpClient> {
  const timeoutMs = login.timeoutMs ?? 30_000;
  const sock = await guardedConnect(policy, { host: login.host, port: login.port, connectTimeoutMs: timeoutMs, signal: login.signal });
  const sftp = new SftpClient('import');
  try {
    await sftp.connect({
      sock, host: login.host, port: login.port, username: login.username, readyTimeout: timeoutMs,
      ...(login.privateKey ? { privateKey: login.privateKey } : { password: login.password }),
    });
    return sftp;
  } catch (error) {
    sock.destroy();
    await sftp.end().catch(() => undefined);
    throw error;
  }
}
