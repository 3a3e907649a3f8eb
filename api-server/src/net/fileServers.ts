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
 *   Host keys are pinned: ssh2's `hostVerifier` receives the server's public key blob during the
 *   key exchange, before authentication; its fingerprint (hostKeys.ts, OpenSSH's `SHA256:` form)
 *   must equal `hostKeyFingerprint` when one is given, else the connection ends there with
 *   HostKeyMismatch and no credential is ever sent. Without one (trust on first use) any key is
 *   taken, and the answer says which was presented, for the caller to record on its configuration
 *   (imports run.ts, reports deliver.ts) so every later connection must present the same key.
 */
import type { Socket } from 'node:net';
import { Client as FtpClient, FTPError } from 'basic-ftp';
import SftpClient from 'ssh2-sftp-client';
import { HostKeyMismatch, hostKeyFingerprint } from './hostKeys.ts';
import type { NetPolicy } from './policy.ts';
import { guardedConnect, guardedSocket } from './socket.ts';

export { FTPError };
export type { FtpClient, SftpClient };

export interface FileServerLogin {
  host: string; port: number; username: string; password: string; timeoutMs?: number; signal?: AbortSignal | undefined;
  /** SFTP only: log in with this private key (OpenSSH or PEM) instead of the password. */
  privateKey?: string | undefined;
  /**
   * SFTP only: the pinned host key fingerprint (`SHA256:...`); a server presenting another key is
   * refused (HostKeyMismatch) before any credential is sent. Absent or null: any key (first use).
   */
  hostKeyFingerprint?: string | null | undefined;
}

/** A logged-in SFTP client and the fingerprint of the host key its server presented. */
export interface SftpConnection { sftp: SftpClient; hostKeyFingerprint: string }

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

/** A logged-in SFTP client, on a server that presented the pinned host key (any key when none is pinned). */
export async function connectSftp(policy: NetPolicy, login: FileServerLogin): Promise<SftpConnection> {
  const timeoutMs = login.timeoutMs ?? 30_000;
  const expected = login.hostKeyFingerprint ?? null;
  const sock = await guardedConnect(policy, { host: login.host, port: login.port, connectTimeoutMs: timeoutMs, signal: login.signal });
  const sftp = new SftpClient('import');
  // Written by the verifier during the key exchange (an object: the compiler does not follow the callback).
  const seen: { key: string | null } = { key: null };
  try {
    await sftp.connect({
      sock, host: login.host, port: login.port, username: login.username, readyTimeout: timeoutMs,
      // Without `hostHash`, ssh2 hands over the raw public key blob; false ends the key exchange.
      hostVerifier: (key: Buffer) => {
        seen.key = hostKeyFingerprint(key);
        return expected === null || seen.key === expected;
      },
      ...(login.privateKey ? { privateKey: login.privateKey } : { password: login.password }),
    });
  } catch (error) {
    sock.destroy();
    await sftp.end().catch(() => undefined);
    if (expected !== null && seen.key !== null && seen.key !== expected) throw new HostKeyMismatch(login, expected, seen.key);
    throw error;
  }
  if (seen.key === null) {
    // ssh2 verifies every key exchange; a session without one would be a broken library, not a server to trust.
    await sftp.end().catch(() => undefined);
    throw new Error('the SFTP server\'s host key was not verified');
  }
  return { sftp, hostKeyFingerprint: seen.key };
}
