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
