/** The report dialog's pure parts: the body per kind and target, the shared checks on the form's fields, a stored report back into values, the SFTP host key, the schedule in words. */
import { describe, expect, it } from 'vitest';
import type { Report } from '@gd/shared/schemas/reports';
import type { TFunction } from '../../i18n/keys.ts';
import { formatSize, initialReportValues, reportBody, scheduleText, targetHostKeyState, validateReportForm, valuesFromUrl, type ReportFormValues } from './reportForm.ts';

const PINNED = 'SHA256:x5fdnafud5spKn2iLJbuPRN2gKSZT1U7mSQpqXFCdTo';
const OTHER = 'SHA256:Z1yRF4efBE+7iV3G4G0bp18dnCBBPUAdOHUBYOmD6E4';
const t = ((key: string, vars?: Record<string, unknown>) => (vars ? `${key} ${JSON.stringify(vars)}` : key)) as TFunction;
const base = (over: Partial<ReportFormValues> = {}): ReportFormValues => {
  const v = initialReportValues();
  return { ...v, name: 'Weekly', query: { ...v.query, event: 'purchase' }, target: { ...v.target, recipients: ['a@example.com'] }, ...over };
};

describe('report form', () => {
  it('sends the explore query without empty choices, and only the chosen target\'s fields', () => {
    expect(reportBody(base())).toEqual({
      name: 'Weekly', kind: 'explore', query: { event: 'purchase', metric: 'events', timeGroup: 'day', compare: false }, range: 'last7Days',
      schedule: { frequency: 'daily', minute: 0, hour: 8, weekday: 1, monthDay: 1 }, format: 'csv',
      target: { type: 'email', mailProviderId: null, recipients: ['a@example.com'] }, active: true,
    });
    const v = base();
    const byProperty = reportBody({ ...v, query: { ...v.query, breakdown: 'property', property: 'plan' } });
    expect(byProperty.query).toMatchObject({ breakdown: 'property', property: 'plan' });
    expect(reportBody({ ...v, kind: 'communication' }).query).toEqual({});
    const sftp = reportBody({ ...v, target: { ...v.target, type: 'sftp', host: 'files.example.com', username: 'u', password: 'p', privateKey: '' } });
    expect(sftp.target).toEqual({ type: 'sftp', host: 'files.example.com', port: 22, username: 'u', path: '/', password: 'p' });
    // An edit without a new secret sends none (the stored one is kept).
    expect(reportBody({ ...v, target: { ...v.target, type: 'sftp', host: 'h.example.com', username: 'u', password: '' } }).target).not.toHaveProperty('password');
  });

  it('checks the values with the shared schema, on the form\'s own field paths', () => {
    expect(validateReportForm(base(), t)).toEqual({});
    const v = base();
    expect(validateReportForm({ ...v, name: '' }, t)).toHaveProperty('name');
    expect(validateReportForm({ ...v, target: { ...v.target, recipients: [] } }, t)).toHaveProperty(['target.recipients']);
    expect(validateReportForm({ ...v, target: { ...v.target, recipients: ['nope'] } }, t)).toHaveProperty(['target.recipients']);
    expect(validateReportForm({ ...v, query: { ...v.query, event: '' } }, t)).toHaveProperty(['query.event']);
    expect(validateReportForm({ ...v, query: { ...v.query, breakdown: 'property', property: '' } }, t)).toHaveProperty(['query.property']);
    expect(validateReportForm({ ...v, schedule: { ...v.schedule, frequency: 'half_hour', minute: 40 } }, t)).toHaveProperty(['schedule.minute']);
    expect(validateReportForm({ ...v, kind: 'acquisition' }, t)).toEqual({});
  });

  it('takes funnel and cohort queries as JSON, checked by their own schemas, and from the page\'s URL', () => {
    const v = base({ kind: 'funnel', queryJson: JSON.stringify({ steps: [{ event: 'a', filters: [] }, { event: 'b', filters: [] }] }) });
    expect(validateReportForm(v, t)).toEqual({});
    expect(reportBody(v).query).toEqual({ steps: [{ event: 'a', filters: [] }, { event: 'b', filters: [] }] });
    expect(validateReportForm({ ...v, queryJson: '{ not json' }, t)).toHaveProperty('queryJson', 'reports.fields.queryInvalid');
    expect(validateReportForm({ ...v, queryJson: '{"steps":[{"event":"a","filters":[]}]}' }, t).queryJson).toMatch(/^steps: /);
    const preset = valuesFromUrl(`?kind=cohort&query=${encodeURIComponent(JSON.stringify({ start: { event: 'x', filters: [] }, startDay: '2026-01-01', endDay: '2026-01-02' }))}`);
    expect(preset.kind).toBe('cohort');
    expect(JSON.parse(preset.queryJson!)).toEqual({ start: { event: 'x', filters: [] } });
    expect(valuesFromUrl('?kind=acquisition')).toEqual({});
  });

  it('reads a stored report back, secrets left empty', () => {
    const report: Report = {
      id: '5d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d12', appId: '6d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d13', name: 'Files', kind: 'explore',
      query: { event: 'open', metric: 'people', breakdown: 'country', timeGroup: 'week', compare: true }, range: 'lastFullWeek',
      schedule: { frequency: 'weekly', minute: 15, hour: 6, weekday: 7, monthDay: 1 }, format: 'zip',
      target: { type: 'sftp', host: 'files.example.com', port: 2222, username: 'u', path: '/in', hasPassword: true, hasPrivateKey: false, hostKeyFingerprint: PINNED },
      active: false, nextRunAt: null, timezone: 'Europe/Madrid', lastRun: null, createdBy: null, createdAt: '', updatedAt: '',
    };
    const values = initialReportValues(report);
    expect(values.query).toEqual({ event: 'open', metric: 'people', breakdown: 'country', property: '', timeGroup: 'week', compare: true });
    expect(values.target).toMatchObject({
      type: 'sftp', host: 'files.example.com', port: 2222, password: '', privateKey: '', path: '/in',
      hostKeyFingerprint: '', forgetHostKey: false, pinnedHostKey: { fingerprint: PINNED, host: 'files.example.com', port: 2222 },
    });
    expect(reportBody(values)).toMatchObject({ range: 'lastFullWeek', format: 'zip', active: false, schedule: report.schedule });
    // The pinned key is kept by sending none.
    expect(targetHostKeyState(values.target)).toBe('pinned');
    expect(reportBody(values).target).not.toHaveProperty('hostKeyFingerprint');
  });

  it('sends the SFTP host key the user typed or forgot, none otherwise, and says when a host or port change will forget it', () => {
    const v = base();
    const sftp = { ...v.target, type: 'sftp' as const, host: 'files.example.com', port: 2222, username: 'u', password: 'p' };
    const pinned = { ...sftp, pinnedHostKey: { fingerprint: PINNED, host: 'files.example.com', port: 2222 } };
    const bodyOf = (target: ReportFormValues['target']) => reportBody({ ...v, target }).target as Record<string, unknown>;
    // A new target: trust on first use, or a fingerprint given in advance (trimmed).
    expect(targetHostKeyState(sftp)).toBe('firstUse');
    expect(bodyOf(sftp)).not.toHaveProperty('hostKeyFingerprint');
    expect(bodyOf({ ...sftp, hostKeyFingerprint: ` ${OTHER} ` })).toMatchObject({ hostKeyFingerprint: OTHER });
    // A pinned key: kept (host compared without case), forgotten (null), or replaced.
    expect(targetHostKeyState({ ...pinned, host: 'Files.Example.com' })).toBe('pinned');
    expect(targetHostKeyState({ ...pinned, forgetHostKey: true })).toBe('forgotten');
    expect(bodyOf({ ...pinned, forgetHostKey: true })).toMatchObject({ hostKeyFingerprint: null });
    expect(targetHostKeyState({ ...pinned, hostKeyFingerprint: OTHER })).toBe('given');
    expect(bodyOf({ ...pinned, forgetHostKey: true, hostKeyFingerprint: OTHER })).toMatchObject({ hostKeyFingerprint: OTHER });
    // Another host or port: the server forgets the pinned key unless one is typed; the form says so.
    expect(targetHostKeyState({ ...pinned, port: 22 })).toBe('serverChanged');
    expect(targetHostKeyState({ ...pinned, host: 'other.example.com' })).toBe('serverChanged');
    expect(bodyOf({ ...pinned, port: 22 })).not.toHaveProperty('hostKeyFingerprint');
    // An e-mail target has none; a malformed one is refused on its field with the form's words.
    expect(bodyOf({ ...pinned, type: 'email', recipients: ['a@example.com'], forgetHostKey: true })).not.toHaveProperty('hostKeyFingerprint');
    expect(validateReportForm({ ...v, target: { ...sftp, hostKeyFingerprint: OTHER } }, t)).toEqual({});
    expect(validateReportForm({ ...v, target: { ...sftp, hostKeyFingerprint: 'SHA256:abc' } }, t)).toEqual({ 'target.hostKeyFingerprint': 'imports.hostKey.invalid' });
  });

  it('says the schedule and sizes', () => {
    expect(scheduleText({ frequency: 'weekly', minute: 5, hour: 7, weekday: 1, monthDay: 1 }, t)).toBe('reports.scheduleText.weekly {"weekday":"reports.weekday.1","time":"07:05"}');
    expect(scheduleText({ frequency: 'half_hour', minute: 10, hour: 0, weekday: 1, monthDay: 1 }, t)).toBe('reports.scheduleText.half_hour {"minute":"10","minute2":"40"}');
    expect(scheduleText({ frequency: 'monthly', minute: 0, hour: 23, weekday: 1, monthDay: 31 }, t)).toBe('reports.scheduleText.monthly {"day":31,"time":"23:00"}');
    expect([formatSize(null), formatSize(512), formatSize(2048), formatSize(3 * 1024 * 1024)]).toEqual(['', '512 B', '2.0 KB', '3.0 MB']);
  });
});
