import { describe, expect, it } from 'vitest';
import { ImportSourceInput, type ImportTask } from '@gd/shared/schemas/imports';
import { emptyValues, fieldOf, ftpHostKeyState, sourceOf, valuesOf } from './formModel.ts';

const values = () => emptyValues('2026-11-22', '2026-11-16');

describe('import form model', () => {
  it('builds a valid source of every type with the spec field names', () => {
    const v = values().source;
    expect(ImportSourceInput.parse(sourceOf({ ...v, type: 'csv' }))).toEqual({ type: 'csv' });
    expect(sourceOf({ ...v, type: 'csv_dynamic', idType: 'deviceId', csvFileURL: ' https://x.test/a.csv ' })).toEqual({ type: 'csv_dynamic', csvIdType: 'deviceId', csvFileURL: 'https://x.test/a.csv' });
    expect(sourceOf({ ...v, type: 'https', httpsFileUrl: 'https://x.test/a.csv' })).toEqual({ type: 'https', httpsIdType: 'customerId', httpsFileUrl: 'https://x.test/a.csv' });
    const ftp = sourceOf({ ...v, type: 'ftp', ftpHost: 'files.example.com', ftpPort: '2121', ftpUsername: 'me', ftpFileRoute: '/a.csv', isSecureFtp: true });
    expect(ftp).toMatchObject({ type: 'ftp', ftpIdType: 'customerId', ftpPort: 2121, isSecureFtp: true, ftpPassword: undefined });
    expect(ImportSourceInput.safeParse(ftp).success).toBe(true);
    expect(sourceOf({ ...v, type: 'ftp', ftpPassword: 'p' })).toMatchObject({ ftpPassword: 'p' });
    const report = sourceOf({ ...v, type: 'performance_report', kpiType: 'conversions', channels: ['push'], campaignIds: 'a, b', messageIds: '' });
    expect(report).toEqual({
      type: 'performance_report', kpiType: 'conversions', filters: { channels: ['push'], campaignIds: ['a', 'b'], messageIds: [], journeyIds: [] },
      dateRange: { startDay: '2026-11-16', endDay: '2026-11-22', timeGroup: 'day' },
    });
    expect(ImportSourceInput.safeParse(report).success).toBe(true);
  });

  it('round-trips a task (the password stays unknown)', () => {
    const task = {
      id: 't', name: 'FTP', type: 'ftp', audienceId: 'a', hasPassword: true,
      config: { type: 'ftp', ftpIdType: 'deviceId', ftpHost: 'h', ftpPort: 22, ftpUsername: 'u', ftpFileRoute: '/f', isSecureFtp: true },
    } as unknown as ImportTask;
    const v = valuesOf(task, '2026-11-22', '2026-11-16');
    expect(v).toMatchObject({ name: 'FTP', target: 'existing', audienceId: 'a', source: { type: 'ftp', idType: 'deviceId', ftpPort: 22, ftpPassword: '', pinnedHostKey: null } });
    expect(sourceOf(v.source)).toEqual({ ...task.config, ftpPassword: undefined });
  });

  it('shows an SFTP task\'s pinned host key and sends it only when typed or forgotten', () => {
    const PINNED = 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo';
    const OTHER = 'SHA256:Z1yRF4efBE+7iV3G4G0bp18dnCBBPUAdOHUBYOmD6E4';
    const task = {
      id: 't', name: 'SFTP', type: 'ftp', audienceId: 'a', hasPassword: true,
      config: { type: 'ftp', ftpIdType: 'customerId', ftpHost: 'files.example.com', ftpPort: 22, ftpUsername: 'u', ftpFileRoute: '/f', isSecureFtp: true, ftpHostKeyFingerprint: PINNED },
    } as unknown as ImportTask;
    const s = valuesOf(task, '2026-11-22', '2026-11-16').source;
    expect(s).toMatchObject({ pinnedHostKey: { fingerprint: PINNED, host: 'files.example.com', port: 22 }, ftpHostKeyFingerprint: '', forgetHostKey: false });
    // Kept: nothing sent (the server keeps it).
    expect(ftpHostKeyState(s)).toBe('pinned');
    expect(sourceOf(s)).not.toHaveProperty('ftpHostKeyFingerprint');
    // Forgotten: null; replaced or given in advance: the typed one, trimmed, and valid for the schema.
    expect(ftpHostKeyState({ ...s, forgetHostKey: true })).toBe('forgotten');
    expect(sourceOf({ ...s, forgetHostKey: true })).toMatchObject({ ftpHostKeyFingerprint: null });
    const replaced = sourceOf({ ...s, ftpHostKeyFingerprint: ` ${OTHER} ` });
    expect(replaced).toMatchObject({ ftpHostKeyFingerprint: OTHER });
    expect(ImportSourceInput.safeParse(replaced).success).toBe(true);
    expect(ImportSourceInput.safeParse(sourceOf({ ...s, ftpHostKeyFingerprint: 'SHA256:nope' })).success).toBe(false);
    // Another host or port: the form warns that saving forgets it; nothing is sent.
    expect(ftpHostKeyState({ ...s, ftpPort: '2222' })).toBe('serverChanged');
    expect(ftpHostKeyState({ ...s, ftpHost: ' FILES.example.com ' })).toBe('pinned');
    expect(sourceOf({ ...s, ftpHost: 'other.example.com' })).not.toHaveProperty('ftpHostKeyFingerprint');
    // A new source: trust on first use unless one is typed; plain FTP sends none.
    const fresh = { ...values().source, type: 'ftp' as const, ftpHost: 'h', ftpFileRoute: '/f', isSecureFtp: true };
    expect(ftpHostKeyState(fresh)).toBe('firstUse');
    expect(sourceOf(fresh)).not.toHaveProperty('ftpHostKeyFingerprint');
    expect(sourceOf({ ...fresh, isSecureFtp: false, ftpHostKeyFingerprint: OTHER })).not.toHaveProperty('ftpHostKeyFingerprint');
  });

  it('puts schema and server paths on the form fields', () => {
    expect(fieldOf('source.httpsIdType')).toBe('source.idType');
    expect(fieldOf('source.dateRange.endDay')).toBe('source.endDay');
    expect(fieldOf('source.filters.campaignIds.0')).toBe('source.campaignIds');
    expect(fieldOf('source.httpsFileUrl')).toBe('source.httpsFileUrl');
    expect(fieldOf('name')).toBe('name');
  });
});
