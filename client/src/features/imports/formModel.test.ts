import { describe, expect, it } from 'vitest';
import { ImportSourceInput, type ImportTask } from '@gd/shared/schemas/imports';
import { emptyValues, fieldOf, sourceOf, valuesOf } from './formModel.ts';

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
    expect(v).toMatchObject({ name: 'FTP', target: 'existing', audienceId: 'a', source: { type: 'ftp', idType: 'deviceId', ftpPort: 22, ftpPassword: '' } });
    expect(sourceOf(v.source)).toEqual({ ...task.config, ftpPassword: undefined });
  });

  it('puts schema and server paths on the form fields', () => {
    expect(fieldOf('source.httpsIdType')).toBe('source.idType');
    expect(fieldOf('source.dateRange.endDay')).toBe('source.endDay');
    expect(fieldOf('source.filters.campaignIds.0')).toBe('source.campaignIds');
    expect(fieldOf('source.httpsFileUrl')).toBe('source.httpsFileUrl');
    expect(fieldOf('name')).toBe('name');
  });
});
