/**
 * The import form's values and their mapping to and from the API's source (SPEC.md section 3
 * field names): one flat set of fields for every type, so switching the type keeps what was typed.
 * Pure: tested in formModel.test.ts. An SFTP source's host key follows ui/hostKey.ts.
 */
import type { AudienceIdType } from '@gd/shared/segment/audience';
import type { ImportSourceInput, ImportTask, ImportTaskType, KpiType } from '@gd/shared/schemas/imports';
import { hostKeyField, hostKeyState, type HostKeyState, type PinnedHostKey } from '../../ui/hostKey.ts';
import { splitIds } from './progress.ts';

export interface SourceValues {
  type: ImportTaskType;
  idType: AudienceIdType;
  csvFileURL: string;
  httpsFileUrl: string;
  ftpHost: string;
  ftpPort: number | string;
  ftpUsername: string;
  /** Write-only: empty keeps the stored password when editing. */
  ftpPassword: string;
  ftpFileRoute: string;
  isSecureFtp: boolean;
  /** SFTP: the task's pinned host key and the server it was pinned for (read-only; null: none). */
  pinnedHostKey: PinnedHostKey | null;
  /** SFTP: a fingerprint typed in, in advance or replacing the pinned one (empty: none). */
  ftpHostKeyFingerprint: string;
  /** SFTP: forget the pinned key (the next login pins the key it meets). */
  forgetHostKey: boolean;
  s3IntegrationId: string;
  s3FileRoute: string;
  kpiType: KpiType;
  startDay: string;
  endDay: string;
  channels: string[];
  campaignIds: string;
  messageIds: string;
  segmentId: string;
  /** adobe: the experience-platform integration and the platform's segment. */
  adobeId: string;
  adobeSegmentId: string;
}

export interface FormValues {
  name: string;
  target: 'new' | 'existing';
  audienceId: string;
  isTest: boolean;
  source: SourceValues;
}

export function emptyValues(today: string, weekAgo: string): FormValues {
  return {
    name: '', target: 'new', audienceId: '', isTest: false,
    source: {
      type: 'csv', idType: 'customerId', csvFileURL: '', httpsFileUrl: '', ftpHost: '', ftpPort: 21, ftpUsername: '', ftpPassword: '',
      ftpFileRoute: '', isSecureFtp: false, pinnedHostKey: null, ftpHostKeyFingerprint: '', forgetHostKey: false,
      s3IntegrationId: '', s3FileRoute: '', kpiType: 'impacts', startDay: weekAgo, endDay: today,
      channels: [], campaignIds: '', messageIds: '', segmentId: '', adobeId: '', adobeSegmentId: '',
    },
  };
}

/** The values of an existing task (its secrets are not known: the password field starts empty). */
export function valuesOf(task: ImportTask, today: string, weekAgo: string): FormValues {
  const base = emptyValues(today, weekAgo);
  const s = { ...base.source, type: task.type };
  const c = task.config;
  switch (c.type) {
    case 'csv':
      Object.assign(s, { csvFileURL: c.csvFileURL ?? '' });
      break;
    case 'csv_dynamic':
      Object.assign(s, { csvFileURL: c.csvFileURL ?? '', idType: c.csvIdType });
      break;
    case 'https':
      Object.assign(s, { httpsFileUrl: c.httpsFileUrl, idType: c.httpsIdType });
      break;
    case 'ftp':
      Object.assign(s, {
        ftpHost: c.ftpHost, ftpPort: c.ftpPort, ftpUsername: c.ftpUsername, ftpFileRoute: c.ftpFileRoute, isSecureFtp: c.isSecureFtp, idType: c.ftpIdType,
        pinnedHostKey: c.isSecureFtp && c.ftpHostKeyFingerprint ? { fingerprint: c.ftpHostKeyFingerprint, host: c.ftpHost, port: c.ftpPort } : null,
      });
      break;
    case 's3':
      Object.assign(s, { s3IntegrationId: c.s3IntegrationId, s3FileRoute: c.s3FileRoute, idType: c.s3IdType });
      break;
    case 'performance_report':
      Object.assign(s, {
        kpiType: c.kpiType, startDay: c.dateRange.startDay, endDay: c.dateRange.endDay, channels: c.filters.channels,
        campaignIds: c.filters.campaignIds.join(', '), messageIds: c.filters.messageIds.join(', '),
      });
      break;
    case 'segment':
      Object.assign(s, { segmentId: c.segmentId ?? '' });
      break;
    case 'adobe':
      Object.assign(s, { adobeId: c.adobeId, adobeSegmentId: c.adobeSegmentId, idType: c.adobeIdType });
      break;
    default: {
      const never: never = c;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
  return { ...base, name: task.name, target: 'existing', audienceId: task.audienceId ?? '', source: s };
}

const opt = (v: string) => (v.trim() ? v.trim() : undefined);

/** The SFTP host key's state for the form (ui/hostKey.ts). */
export const ftpHostKeyState = (v: SourceValues): HostKeyState => hostKeyState({
  host: v.ftpHost, port: v.ftpPort, hostKeyFingerprint: v.ftpHostKeyFingerprint, forgetHostKey: v.forgetHostKey, pinnedHostKey: v.pinnedHostKey,
});

/** The source to send (validated by the shared schema before it leaves). */
export function sourceOf(v: SourceValues): ImportSourceInput {
  switch (v.type) {
    case 'csv':
      return { type: 'csv', csvFileURL: opt(v.csvFileURL) };
    case 'csv_dynamic':
      return { type: 'csv_dynamic', csvFileURL: opt(v.csvFileURL), csvIdType: v.idType };
    case 'https':
      return { type: 'https', httpsIdType: v.idType, httpsFileUrl: v.httpsFileUrl.trim() };
    case 'ftp': {
      const hostKey = v.isSecureFtp ? hostKeyField(ftpHostKeyState(v), v.ftpHostKeyFingerprint) : undefined;
      return {
        type: 'ftp', ftpIdType: v.idType, ftpHost: v.ftpHost.trim(), ftpPort: Number(v.ftpPort), ftpUsername: v.ftpUsername.trim(),
        ftpPassword: v.ftpPassword === '' ? undefined : v.ftpPassword, ftpFileRoute: v.ftpFileRoute.trim(), isSecureFtp: v.isSecureFtp,
        ...(hostKey !== undefined ? { ftpHostKeyFingerprint: hostKey } : {}),
      };
    }
    case 's3':
      return { type: 's3', s3IdType: v.idType, s3IntegrationId: v.s3IntegrationId, s3FileRoute: v.s3FileRoute.trim() };
    case 'performance_report':
      return {
        type: 'performance_report', kpiType: v.kpiType,
        filters: { channels: v.channels as ('push' | 'inapp' | 'email' | 'native')[], campaignIds: splitIds(v.campaignIds), messageIds: splitIds(v.messageIds), journeyIds: [] },
        dateRange: { startDay: v.startDay, endDay: v.endDay, timeGroup: 'day' },
      };
    case 'segment':
      return { type: 'segment', segmentId: opt(v.segmentId) };
    case 'adobe':
      return { type: 'adobe', adobeId: v.adobeId, adobeSegmentId: v.adobeSegmentId.trim(), adobeIdType: v.idType };
    default: {
      const never: never = v.type;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
}

/** The form field a schema or server path names ("source.httpsIdType" → "source.idType"). */
export function fieldOf(path: string): string {
  const parts = path.split('.');
  if (parts[0] !== 'source' || parts.length < 2) return path;
  const field = parts[1] ?? '';
  if (/IdType$/.test(field)) return 'source.idType';
  if (field === 'dateRange') return `source.${parts[2] === 'endDay' ? 'endDay' : 'startDay'}`;
  if (field === 'filters') return `source.${parts[2] ?? 'campaignIds'}`;
  return `source.${field}`;
}

/** Every form field an error may land on. */
export const FORM_FIELDS = [
  'name', 'audienceId', 'source.type', 'source.idType', 'source.csvFileURL', 'source.httpsFileUrl', 'source.ftpHost', 'source.ftpPort',
  'source.ftpUsername', 'source.ftpPassword', 'source.ftpFileRoute', 'source.ftpHostKeyFingerprint', 'source.s3IntegrationId', 'source.s3FileRoute', 'source.kpiType',
  'source.startDay', 'source.endDay', 'source.channels', 'source.campaignIds', 'source.messageIds', 'source.segmentId',
  'source.adobeId', 'source.adobeSegmentId',
] as const;

/** The id types a source type asks for (csv holds customer ids; reports and segments none). */
export const asksIdType = (type: ImportTaskType) => type === 'csv_dynamic' || type === 'https' || type === 'ftp' || type === 's3' || type === 'adobe';
export const takesFile = (type: ImportTaskType) => type === 'csv' || type === 'csv_dynamic';
