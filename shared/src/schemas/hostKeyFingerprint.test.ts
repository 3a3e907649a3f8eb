/**
 * The SSH host key fingerprint an SFTP import source or report target pins: OpenSSH's
 * `SHA256:<base64 without padding>` (the examples are what `ssh-keygen -lf` printed for real keys),
 * refused in any other form with the field's path; null forgets, absent keeps.
 */
import { describe, expect, it } from 'vitest';
import { HostKeyFingerprint, ImportSourceInput } from './imports.ts';
import { ReportInput } from './reports.ts';

const ED25519 = 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo';
const RSA = 'SHA256:Z1yRF4efBE+7iV3G4G0bp18dnCBBPUAdOHUBYOmD6E4';

const MALFORMED = [
  '',
  'SHA256:',
  ED25519.slice('SHA256:'.length), // no prefix
  ED25519.replace('SHA256:', 'sha256:'),
  ED25519.replace('SHA256:', 'SHA256: '),
  ED25519.replace('SHA256:', 'MD5:'),
  '16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48', // the old MD5 hex form
  `${ED25519}=`, // padded
  ED25519.slice(0, -1), // 42 characters
  `${ED25519}A`, // 44 characters
  `${ED25519.slice(0, -1)}p`, // a last character with padding bits set: not a SHA-256
  ED25519.replace('x5fd', 'x5-d'), // base64url
  `256 ${ED25519} files.example.com (ED25519)`, // the whole ssh-keygen line
];

const ftp = (extra: Record<string, unknown>) => ({ type: 'ftp', ftpIdType: 'customerId', ftpHost: 'files.example.com', ftpPort: 22, ftpFileRoute: '/a.csv', isSecureFtp: true, ...extra });
const report = (extra: Record<string, unknown>) => ({
  name: 'Daily', kind: 'communication', schedule: { frequency: 'daily' },
  target: { type: 'sftp', host: 'files.example.com', username: 'u', password: 'p', ...extra },
});

describe('SSH host key fingerprints', () => {
  it('takes OpenSSH\'s SHA256 form, surrounding spaces trimmed', () => {
    expect(HostKeyFingerprint.parse(ED25519)).toBe(ED25519);
    expect(HostKeyFingerprint.parse(RSA)).toBe(RSA);
    expect(HostKeyFingerprint.parse(` ${RSA}\n`)).toBe(RSA);
  });

  it('refuses every other form with a message that says the expected one', () => {
    for (const value of MALFORMED) {
      const parsed = HostKeyFingerprint.safeParse(value);
      expect(parsed.success, value).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain('ssh-keygen -lf');
    }
  });

  it('is an optional, nullable field of an SFTP import source, refused on its path when malformed', () => {
    expect(ImportSourceInput.parse(ftp({ ftpHostKeyFingerprint: ED25519 }))).toMatchObject({ ftpHostKeyFingerprint: ED25519 });
    expect(ImportSourceInput.parse(ftp({ ftpHostKeyFingerprint: null }))).toMatchObject({ ftpHostKeyFingerprint: null });
    expect(ImportSourceInput.parse(ftp({}))).not.toHaveProperty('ftpHostKeyFingerprint');
    for (const value of MALFORMED) {
      const parsed = ImportSourceInput.safeParse(ftp({ ftpHostKeyFingerprint: value }));
      expect(parsed.success, value).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['ftpHostKeyFingerprint']);
    }
  });

  it('is an optional, nullable field of a report\'s SFTP target, refused on its path when malformed', () => {
    expect(ReportInput.parse(report({ hostKeyFingerprint: RSA })).target).toMatchObject({ hostKeyFingerprint: RSA });
    expect(ReportInput.parse(report({ hostKeyFingerprint: null })).target).toMatchObject({ hostKeyFingerprint: null });
    expect(ReportInput.parse(report({})).target).not.toHaveProperty('hostKeyFingerprint');
    for (const value of MALFORMED) {
      const parsed = ReportInput.safeParse(report({ hostKeyFingerprint: value }));
      expect(parsed.success, value).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['target.hostKeyFingerprint']);
    }
  });
});
