/**
 * SSH host keys: their fingerprint in OpenSSH's form, and the refusal of a server that presents a
 * key other than the pinned one (fileServers.ts `connectSftp`).
 *
 * The fingerprint is what `ssh-keygen -lf` prints: `SHA256:` and the SHA-256 of the public key blob
 * (the SSH wire encoding ssh2's `hostVerifier` receives) in base64 without padding, so a user can
 * compare it with what their server's administrator reads on the server.
 */
import { createHash } from 'node:crypto';

export const hostKeyFingerprint = (key: Buffer): string => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/**
 * The server presented another host key than the pinned one; the connection was closed during the
 * key exchange, before any credential was sent. The message names both fingerprints; the feature
 * adds what its user should do (confirm the new key by editing the configuration).
 */
export class HostKeyMismatch extends Error {
  readonly host: string;
  readonly port: number;
  readonly expected: string;
  readonly presented: string;
  constructor(where: { host: string; port: number }, expected: string, presented: string) {
    super(`the SFTP server ${where.host}:${where.port} presented the host key ${presented}, but ${expected} is pinned; the connection was refused before logging in`);
    this.name = 'HostKeyMismatch';
    this.host = where.host;
    this.port = where.port;
    this.expected = expected;
    this.presented = presented;
  }
}

/** An SFTP server as a configuration names it. */
export interface SftpServer { host: string; port: number }

/**
 * The host key to store when an SFTP configuration (an import's source, a report's target) is
 * saved: the fingerprint given (null: forget the pinned one); none given, the pinned one is kept
 * (undefined: leave the column as it is) while the configuration names the same server, and
 * forgotten (null) when the host or port changed or there was no SFTP server before: another
 * server's key is not this one's, and the next login pins the key it meets.
 */
export function hostKeyOnSave(given: string | null | undefined, before: SftpServer | null, now: SftpServer): string | null | undefined {
  if (given !== undefined) return given;
  const sameServer = before !== null && before.host.toLowerCase() === now.host.toLowerCase() && before.port === now.port;
  return sameServer ? undefined : null;
}
