/**
 * Credentials at rest (an FTP password, an object storage secret key): AES-256-GCM with a key
 * derived (HKDF-SHA256) from the server secret (JWT_SECRET, or the one kept in server_secrets), so
 * a copy of the database alone does not reveal them. The row's id is the additional data: a
 * ciphertext moved to another row does not open. Layout: version byte, 12-byte IV, 16-byte tag,
 * ciphertext of the JSON.
 *
 * Changing the server secret makes stored credentials unreadable; the import then fails with
 * NoRecoverableTaskError and asks for the password again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const keys = new Map<string, Buffer>();

function keyFor(serverSecret: string): Buffer {
  let key = keys.get(serverSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', serverSecret, 'growthdeck-credentials', 'credentials-aes-256-gcm-v1', 32));
    keys.set(serverSecret, key);
  }
  return key;
}

export type Secrets = Record<string, string>;

export function sealSecrets(serverSecret: string, rowId: string, secrets: Secrets): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(serverSecret), iv);
  cipher.setAAD(Buffer.from(rowId));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** The secrets, or null when the blob does not open with this server secret and row. */
export function openSecrets(serverSecret: string, rowId: string, blob: Buffer): Secrets | null {
  if (blob.length < 29 || blob[0] !== VERSION) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(serverSecret), blob.subarray(1, 13));
    decipher.setAAD(Buffer.from(rowId));
    decipher.setAuthTag(blob.subarray(13, 29));
    const text = Buffer.concat([decipher.update(blob.subarray(29)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Secrets) : null;
  } catch {
    return null;
  }
}
