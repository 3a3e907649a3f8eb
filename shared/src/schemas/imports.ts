/**
 * Import tasks (/manage/import-task) and audience exports: SPEC.md section 3 "Audience (import
 * task)" fields per type (the field names are the spec's), section 4 states (an import task goes
 * new → in_progress → ready or error) and export statuses, section 5 file URLs, section 8 error
 * names and section 9's FTP default port.
 *
 * Decisions where the spec is silent:
 * - Every import fills one audience (an existing one, refilled, or a new one named after the task);
 *   its members are replaced only when the whole import succeeded.
 * - A CSV file has a header row; the identifier column is the one whose header names the
 *   identifier type (`customerId`, `customer_id`, `deviceId`, `{product}Id`, `id`, ...), else the
 *   first column. Plain `csv` holds customer ids; `csv_dynamic` says which id type (csvIdType).
 * - `isSecureFtp` means SFTP (SSH file transfer); `ftpPort` still defaults to 21 (section 9), and
 *   the form proposes 22 when secure is ticked.
 * - Secrets (ftpPassword, an object storage secret key) are write-only: answers say
 *   `hasPassword` / `hasSecret`, never the value.
 * - An SFTP source pins its server's host key (`ftpHostKeyFingerprint`, OpenSSH's
 *   `SHA256:<base64>`): pasted in advance, or recorded by the first successful connection when left
 *   empty (trust on first use); a server presenting another key is refused before logging in. On an
 *   edit, absent keeps the pinned one (cleared when the host or port changes), null forgets it.
 * - An adobe import reads a segment's members from an experience-platform integration (adobeId)
 *   through its export API (api-server features/integrations/adobeExport.ts).
 * - A performance-report import selects the people who had an impression (kpiType impacts) or a
 *   conversion after an interaction (kpiType conversions) with the filtered messages in the
 *   date range (days in the app's time zone).
 */
import { z } from 'zod';
import { Name } from './common.ts';
import { InteractionChannel } from '../behaviour/events.ts';
import { DateRange } from '../dateRange.ts';
import { AudienceErrorName, ImportErrorName } from '../errors.ts';
import { AudienceIdType, AudienceStatus } from '../segment/audience.ts';
import { Segment } from '../segment/model.ts';

export const IMPORT_LIMITS = {
  /** Largest uploaded CSV file. */
  uploadMaxBytes: 512 * 1024 * 1024,
  /** Inline csvContent in a JSON body (bigger files go through the upload call). */
  inlineMaxChars: 90_000,
  /** Longest identifier; longer ones match nobody. */
  identifierMaxLength: 256,
  /** FTP default port (SPEC.md section 9). */
  ftpDefaultPort: 21,
  /** Tries of an import whose source failed in a way that may pass (network, 5xx). */
  maxAttempts: 3,
} as const;

/** The import types this product runs (SPEC.md section 3; external and none have no import). */
export const ImportTaskType = z.enum(['csv', 'csv_dynamic', 'https', 'ftp', 's3', 'performance_report', 'segment', 'adobe']);
export type ImportTaskType = z.infer<typeof ImportTaskType>;

/** SPEC.md section 4: audience or import states. */
export const ImportStatus = AudienceStatus;
export type ImportStatus = z.infer<typeof ImportStatus>;

/** What a failed import or audience records (SPEC.md section 8 names). */
export const ImportErrorKind = z.enum([...ImportErrorName, ...AudienceErrorName]);
export type ImportErrorKind = z.infer<typeof ImportErrorKind>;

/** SPEC.md section 3 "Export formats" and section 4 export statuses. */
export const ExportFormat = z.enum(['zip', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormat>;
export const ExportStatus = z.enum(['ready', 'error', 'processing', 'warning']);
export type ExportStatus = z.infer<typeof ExportStatus>;

export const KpiType = z.enum(['impacts', 'conversions']);
export type KpiType = z.infer<typeof KpiType>;

/**
 * A file URL (SPEC.md section 5): http, https or ftp, without credentials in it. Private
 * addresses are refused by the API, which resolves the host (the browser cannot).
 */
export function fileUrlProblem(s: string, protocols: readonly string[] = ['http:', 'https:', 'ftp:']): string | null {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return 'Not a URL';
  }
  if (!protocols.includes(url.protocol)) return `The URL must start with ${protocols.map((p) => `${p}//`).join(' or ')}`;
  if (!url.hostname) return 'The URL has no host';
  if (url.username || url.password) return 'Credentials in the URL are not accepted';
  return null;
}
const urlSchema = (protocols?: readonly string[]) => z.string().trim().max(2048).superRefine((s, ctx) => {
  const problem = fileUrlProblem(s, protocols);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export const FileUrl = urlSchema();

const HostName = z.string().trim().min(1, 'Required').max(253).regex(/^[A-Za-z0-9.:[\]-]+$/, 'A host name or an IP address');

/**
 * An SSH host key fingerprint as OpenSSH prints it (`ssh-keygen -lf`, and ssh's first-connection
 * prompt): `SHA256:` then the SHA-256 of the server's public key blob in base64 without padding.
 * 32 bytes are 43 base64 characters whose last one carries 2 padding bits, so it can only be one
 * of the 16 characters whose low 2 bits are zero: a character lost or mistyped at the end is seen.
 */
export const HOST_KEY_FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]$/;
export const HostKeyFingerprint = z.string().trim().regex(HOST_KEY_FINGERPRINT, 'An SSH host key fingerprint as ssh-keygen -lf prints it: SHA256: and 43 base64 characters');
/** Input of a pinned fingerprint: absent keeps the pinned one, null forgets it (the next connection pins again). */
export const HostKeyFingerprintInput = HostKeyFingerprint.nullable().optional();

const FileRoute = z.string().trim().min(1, 'Required').max(1024);

export const PerformanceFilters = z.object({
  channels: z.array(InteractionChannel).max(4).default([]),
  campaignIds: z.array(z.string().trim().min(1).max(64)).max(100).default([]),
  messageIds: z.array(z.string().trim().min(1).max(64)).max(100).default([]),
  journeyIds: z.array(z.string().trim().min(1).max(64)).max(100).default([]),
});
export type PerformanceFilters = z.infer<typeof PerformanceFilters>;

const csvFields = { csvFileURL: FileUrl.optional() };

/** An import's source as stored and answered: the spec's fields, never a secret. */
export const ImportConfig = z.discriminatedUnion('type', [
  z.object({ type: z.literal('csv'), ...csvFields }),
  z.object({ type: z.literal('csv_dynamic'), ...csvFields, csvIdType: AudienceIdType }),
  z.object({ type: z.literal('https'), httpsIdType: AudienceIdType, httpsFileUrl: urlSchema(['https:', 'http:']) }),
  z.object({
    type: z.literal('ftp'), ftpIdType: AudienceIdType, ftpHost: HostName,
    ftpPort: z.number().int().min(1).max(65535).default(IMPORT_LIMITS.ftpDefaultPort),
    ftpUsername: z.string().trim().max(200).default(''), ftpFileRoute: FileRoute, isSecureFtp: z.boolean().default(false),
    /**
     * SFTP only: the server's pinned host key fingerprint. Answered as stored (null: none yet, the
     * next connection pins the key it meets); not part of the stored config (a column of its own).
     */
    ftpHostKeyFingerprint: HostKeyFingerprintInput,
  }),
  z.object({ type: z.literal('s3'), s3FileRoute: FileRoute, s3IdType: AudienceIdType, s3IntegrationId: z.string().uuid() }),
  z.object({ type: z.literal('performance_report'), kpiType: KpiType, filters: PerformanceFilters.default({ channels: [], campaignIds: [], messageIds: [], journeyIds: [] }), dateRange: DateRange }),
  /** A segment of the app (segmentId), or conditions given here (config), materialised now. */
  z.object({ type: z.literal('segment'), segmentId: z.string().uuid().optional(), config: Segment.optional() }),
  /**
   * An experience-platform integration of the app (adobeId) and the platform's segment whose
   * members are read through its export API (adobeSegmentId; decision: SPEC names only adobeId, and
   * a platform holds many segments), matched by adobeIdType.
   */
  z.object({
    type: z.literal('adobe'), adobeId: z.string().uuid(), adobeSegmentId: z.string().trim().min(1, 'Required').max(200).regex(/^[A-Za-z0-9_.:-]+$/, 'Letters, digits, _ . : and -'),
    adobeIdType: AudienceIdType.default('customerId'),
  }),
]);
export type ImportConfig = z.infer<typeof ImportConfig>;

/**
 * The source as sent by the form: the config plus its write-only secrets. `ftpPassword` absent on
 * an update keeps the stored one; `csvContent` is a small file inline (bigger ones are uploaded).
 */
export const ImportSourceInput = z.discriminatedUnion('type', [
  ImportConfig.options[0].extend({ csvContent: z.string().max(IMPORT_LIMITS.inlineMaxChars).optional() }),
  ImportConfig.options[1].extend({ csvContent: z.string().max(IMPORT_LIMITS.inlineMaxChars).optional() }),
  ImportConfig.options[2],
  ImportConfig.options[3].extend({ ftpPassword: z.string().max(500).optional() }),
  ImportConfig.options[4],
  ImportConfig.options[5],
  ImportConfig.options[6],
  ImportConfig.options[7],
]);
export type ImportSourceInput = z.infer<typeof ImportSourceInput>;

export const ImportTaskCreate = z.object({
  name: Name,
  /** Refill this audience; without it a new audience named `name` is created. */
  audienceId: z.string().uuid().optional(),
  /** For a new audience: whether it is a test audience. */
  isTest: z.boolean().default(false),
  source: ImportSourceInput,
  /** csv types: the file will be uploaded next (POST .../upload); the task waits for it. */
  awaitUpload: z.boolean().default(false),
});
export type ImportTaskCreate = z.infer<typeof ImportTaskCreate>;

/** Rename, or change the source (same type; secrets kept unless given). Not while running. */
export const ImportTaskUpdate = z.object({ name: Name.optional(), source: ImportSourceInput.optional() });
export type ImportTaskUpdate = z.infer<typeof ImportTaskUpdate>;

export const ImportProgress = z.object({
  rowsRead: z.number().int(),
  rowsMatched: z.number().int(),
  /** Rows whose identifier matches nobody: counted, not stored. */
  rowsUnmatched: z.number().int(),
  bytesRead: z.number().int(),
  /** Null when the source does not say how big the file is. */
  bytesTotal: z.number().int().nullable(),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

export const ImportTask = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  audienceId: z.string().uuid().nullable(),
  audienceName: z.string().nullable(),
  name: z.string(),
  type: ImportTaskType,
  config: ImportConfig,
  /** An FTP password is stored (it is never answered). */
  hasPassword: z.boolean(),
  /** A CSV file was uploaded for this task. */
  hasUpload: z.boolean(),
  status: ImportStatus,
  progress: ImportProgress,
  /** People in the audience after the import (null until it succeeded). */
  personCount: z.number().int().nullable(),
  warning: z.string().nullable(),
  errorName: z.string().nullable(),
  errorMessage: z.string().nullable(),
  errorLine: z.number().int().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ImportTask = z.infer<typeof ImportTask>;

export const S3Integration = z.object({
  id: z.string().uuid(),
  name: z.string(),
  endpoint: z.string(),
  region: z.string(),
  bucket: z.string(),
  accessKeyId: z.string(),
  /** A secret access key is stored (it is never answered). */
  hasSecret: z.boolean(),
  createdAt: z.string(),
});
export type S3Integration = z.infer<typeof S3Integration>;

export const S3IntegrationInput = z.object({
  name: Name,
  /** The S3-compatible endpoint, e.g. https://s3.eu-west-1.amazonaws.com (path-style requests). */
  endpoint: urlSchema(['https:', 'http:']),
  region: z.string().trim().min(1).max(64).regex(/^[a-z0-9-]+$/, 'Lower-case letters, digits and -'),
  bucket: z.string().trim().min(3).max(63).regex(/^[a-z0-9.-]+$/, 'Lower-case letters, digits, . and -'),
  accessKeyId: z.string().trim().min(1).max(128),
  secretAccessKey: z.string().min(1).max(256),
});
export type S3IntegrationInput = z.infer<typeof S3IntegrationInput>;

export const AudienceExport = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  audienceId: z.string().uuid().nullable(),
  audienceName: z.string(),
  format: ExportFormat,
  status: ExportStatus,
  /** Rows written (one per member). */
  rowCount: z.number().int().nullable(),
  /** The audience's person count when the export started; a different rowCount is a warning. */
  expectedCount: z.number().int().nullable(),
  byteSize: z.number().int().nullable(),
  fileName: z.string().nullable(),
  warning: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type AudienceExport = z.infer<typeof AudienceExport>;

export const ExportCreate = z.object({ format: ExportFormat });
export type ExportCreate = z.infer<typeof ExportCreate>;

export const ExportListQuery = z.object({ audienceId: z.string().uuid().optional() });
export type ExportListQuery = z.infer<typeof ExportListQuery>;

/** The columns of an export file, in order. */
export const EXPORT_COLUMNS = ['person_id', 'customer_id', 'email', 'device_id'] as const;
