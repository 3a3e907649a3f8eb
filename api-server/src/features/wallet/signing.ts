/**
 * The account's wallet signing settings (migration 052 `wallet_signing`): checking them when saved,
 * storing them with the private key sealed, and opening them to sign.
 *
 * Apple: the pass type certificate (PEM) must parse, not be expired, be issued by the WWDR
 * certificate given with it, and match its private key, which must be RSA (Apple issues RSA
 * 2048 pass certificates; node-forge signs PKCS#7 with RSA only). Google: the service account's
 * key must be RSA (RS256). Keys are stored as unencrypted PKCS#8 PEM, sealed with the server
 * secret and "<account>/<provider>" as additional data. An update without a key keeps the stored
 * one only for the same certificate (Apple: same fingerprint) or the same service account
 * (Google); otherwise 10001 key_required.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { FieldIssue } from '@gd/shared';
import type { AppleSigningInput, GoogleSigningInput, WalletProvider, WalletSigning, WalletSigningIssue } from '@gd/shared/schemas/wallet';
import type { Queryable } from '../../db/pool.ts';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';

export interface AppleSettings { passTypeIdentifier: string; teamIdentifier: string; certificatePem: string; wwdrPem: string; fingerprint: string; subject: string; notAfter: string }
export interface GoogleSettings { issuerId: string; serviceAccountEmail: string }
export interface AppleSigner extends AppleSettings { privateKeyPem: string }
export interface GoogleSigner extends GoogleSettings { privateKeyPem: string }

const rowId = (accountId: string, provider: WalletProvider) => `${accountId}/${provider}`;
const issue = (path: string, message: WalletSigningIssue): FieldIssue => ({ path, message });

function certificate(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}
function rsaKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'rsa' ? key : null;
  } catch {
    return null;
  }
}
const pkcs8 = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The certificate's subject on one line (CN=..., O=...). */
const subjectLine = (cert: X509Certificate) => cert.subject.split('\n').filter(Boolean).join(', ');

async function stored(db: Queryable, serverSecret: string, accountId: string, provider: WalletProvider): Promise<{ settings: Record<string, unknown>; privateKeyPem: string | null } | null> {
  const { rows } = await db.query<{ settings: Record<string, unknown>; secret: Buffer }>(
    'SELECT settings, secret FROM wallet_signing WHERE account_id = $1 AND provider = $2', [accountId, provider]);
  const row = rows[0];
  if (!row) return null;
  return { settings: row.settings, privateKeyPem: openSecrets(serverSecret, rowId(accountId, provider), row.secret)?.privateKeyPem ?? null };
}

async function save(db: Queryable, serverSecret: string, accountId: string, provider: WalletProvider, settings: object, privateKeyPem: string): Promise<void> {
  const secret = sealSecrets(serverSecret, rowId(accountId, provider), { privateKeyPem });
  await db.query(
    `INSERT INTO wallet_signing (account_id, provider, settings, secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, provider) DO UPDATE SET settings = EXCLUDED.settings, secret = EXCLUDED.secret, updated_at = clock_timestamp()`,
    [accountId, provider, JSON.stringify(settings), secret]);
}

/** Checks and saves Apple's settings; the field issues when refused. */
export async function saveAppleSigning(db: Queryable, serverSecret: string, accountId: string, input: AppleSigningInput, now = new Date()): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  const cert = certificate(input.certificatePem);
  const wwdr = certificate(input.wwdrPem);
  if (!cert) issues.push(issue('certificatePem', 'invalid_certificate'));
  else if (new Date(cert.validTo).getTime() < now.getTime()) issues.push(issue('certificatePem', 'certificate_expired'));
  if (!wwdr) issues.push(issue('wwdrPem', 'invalid_certificate'));
  else if (cert && !cert.checkIssued(wwdr)) issues.push(issue('wwdrPem', 'invalid_certificate'));
  let keyPem: string | null = null;
  if (input.privateKeyPem !== undefined) {
    const key = rsaKey(input.privateKeyPem);
    if (!key) issues.push(issue('privateKeyPem', 'invalid_key'));
    else if (cert && !cert.checkPrivateKey(key)) issues.push(issue('privateKeyPem', 'key_mismatch'));
    else keyPem = pkcs8(key);
  } else if (cert) {
    const before = await stored(db, serverSecret, accountId, 'apple');
    if (before?.privateKeyPem && before.settings.fingerprint === cert.fingerprint256) keyPem = before.privateKeyPem;
    else issues.push(issue('privateKeyPem', 'key_required'));
  }
  if (issues.length || !cert || !keyPem) return issues;
  const settings: AppleSettings = {
    passTypeIdentifier: input.passTypeIdentifier, teamIdentifier: input.teamIdentifier, certificatePem: cert.toString(), wwdrPem: input.wwdrPem,
    fingerprint: cert.fingerprint256, subject: subjectLine(cert), notAfter: new Date(cert.validTo).toISOString(),
  };
  await save(db, serverSecret, accountId, 'apple', settings, keyPem);
  return [];
}

/** Checks and saves Google's settings; the field issues when refused. */
export async function saveGoogleSigning(db: Queryable, serverSecret: string, accountId: string, input: GoogleSigningInput): Promise<FieldIssue[]> {
  let keyPem: string | null = null;
  if (input.privateKeyPem !== undefined) {
    const key = rsaKey(input.privateKeyPem);
    if (!key) return [issue('privateKeyPem', 'invalid_key')];
    keyPem = pkcs8(key);
  } else {
    const before = await stored(db, serverSecret, accountId, 'google');
    if (!before?.privateKeyPem || before.settings.serviceAccountEmail !== input.serviceAccountEmail) return [issue('privateKeyPem', 'key_required')];
    keyPem = before.privateKeyPem;
  }
  const settings: GoogleSettings = { issuerId: input.issuerId, serviceAccountEmail: input.serviceAccountEmail };
  await save(db, serverSecret, accountId, 'google', settings, keyPem);
  return [];
}

export async function deleteSigning(db: Queryable, accountId: string, provider: WalletProvider): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM wallet_signing WHERE account_id = $1 AND provider = $2', [accountId, provider]);
  return (rowCount ?? 0) > 0;
}

/** What the screen shows of the account's settings: never a key. */
export async function signingOf(db: Queryable, accountId: string): Promise<WalletSigning> {
  const { rows } = await db.query<{ provider: WalletProvider; settings: Record<string, string>; updated_at: Date }>(
    'SELECT provider, settings, updated_at FROM wallet_signing WHERE account_id = $1', [accountId]);
  const apple = rows.find((r) => r.provider === 'apple');
  const google = rows.find((r) => r.provider === 'google');
  return {
    apple: apple ? {
      passTypeIdentifier: apple.settings.passTypeIdentifier ?? '', teamIdentifier: apple.settings.teamIdentifier ?? '', fingerprint: apple.settings.fingerprint ?? '',
      subject: apple.settings.subject ?? '', notAfter: apple.settings.notAfter ?? '', hasKey: true, updatedAt: apple.updated_at.toISOString(),
    } : null,
    google: google ? { issuerId: google.settings.issuerId ?? '', serviceAccountEmail: google.settings.serviceAccountEmail ?? '', hasKey: true, updatedAt: google.updated_at.toISOString() } : null,
  };
}

/** Which wallets the account can sign for (the pass list's links). */
export async function configuredProviders(db: Queryable, accountId: string): Promise<Set<WalletProvider>> {
  const { rows } = await db.query<{ provider: WalletProvider }>('SELECT provider FROM wallet_signing WHERE account_id = $1', [accountId]);
  return new Set(rows.map((r) => r.provider));
}

/** Apple's settings with the key opened; null when not set or the key no longer opens (the server secret changed). */
export async function appleSigner(db: Queryable, serverSecret: string, accountId: string): Promise<AppleSigner | null> {
  const s = await stored(db, serverSecret, accountId, 'apple');
  return s?.privateKeyPem ? { ...(s.settings as unknown as AppleSettings), privateKeyPem: s.privateKeyPem } : null;
}

export async function googleSigner(db: Queryable, serverSecret: string, accountId: string): Promise<GoogleSigner | null> {
  const s = await stored(db, serverSecret, accountId, 'google');
  return s?.privateKeyPem ? { ...(s.settings as unknown as GoogleSettings), privateKeyPem: s.privateKeyPem } : null;
}
