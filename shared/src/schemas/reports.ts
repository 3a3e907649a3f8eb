/**
 * Scheduled reports (/main/reports): a saved analytics query of an app, run on a schedule in the
 * app's time zone, written as csv or zip (SPEC.md section 3, export formats) and delivered by e-mail
 * (through a mail provider of the account) or to an SFTP server. Each run is a durable job with an
 * export status (section 4: ready, processing, warning, error) and a downloadable file.
 *
 * Decisions (where SPEC says nothing):
 * - Kinds: explore, funnel, cohort, communication (the messages report of
 *   /communication/report) and acquisition (the /acquisition/activity table by source, issue 16).
 * - The query is the kind's own query schema without its days: a report's `range` is relative
 *   (today, yesterday, the last 7 or 30 days including today, the last full ISO week, the last
 *   full month) and is evaluated in the app's time zone at each run's slot.
 * - Schedule (section 3, report frequencies): hourly at `minute`; every half hour at `minute` and
 *   `minute`+30 (`minute` < 30); daily at `hour`:`minute`; weekly on ISO `weekday` (1 = Monday);
 *   monthly on `monthDay`, the month's last day when it is shorter (31 = every month's end).
 * - E-mail goes through the account's active mail provider, or the one named by `mailProviderId`.
 * - SFTP secrets (password, private key) are write-only, as import credentials: absent on an edit
 *   keeps the stored ones; answers say only whether one is stored.
 * - An SFTP target pins its server's host key (`hostKeyFingerprint`, OpenSSH's `SHA256:<base64>`,
 *   the same field as an SFTP import's): pasted in advance, or recorded by the first successful
 *   delivery when left empty (trust on first use); a server presenting another key is refused
 *   before logging in and the run fails at once. On an edit, absent keeps the pinned one (cleared
 *   when the host or port changes), null forgets it.
 */
import { z } from 'zod';
import { Email } from '../formats.ts';
import { ExploreQuery } from './behaviour.ts';
import { CohortQuery } from './cohorts.ts';
import { FunnelQuery } from './funnels.ts';
import { Name } from './common.ts';
import { ExportFormat, ExportStatus, HostKeyFingerprintInput } from './imports.ts';

export const ReportKind = z.enum(['explore', 'funnel', 'cohort', 'communication', 'acquisition']);
export type ReportKind = z.infer<typeof ReportKind>;
/** Kinds a report can run today. */
export const RUNNABLE_REPORT_KINDS: readonly ReportKind[] = ['explore', 'funnel', 'cohort', 'communication', 'acquisition'];

export const ReportFrequency = z.enum(['hourly', 'half_hour', 'daily', 'weekly', 'monthly']);
export type ReportFrequency = z.infer<typeof ReportFrequency>;

export const ReportRange = z.enum(['today', 'yesterday', 'last7Days', 'last30Days', 'lastFullWeek', 'lastFullMonth']);
export type ReportRange = z.infer<typeof ReportRange>;

export const REPORT_LIMITS = {
  maxRecipients: 20,
  /** Largest report file kept and delivered. */
  maxFileBytes: 20 * 1024 * 1024,
  sftpDefaultPort: 22,
} as const;

export const ReportSchedule = z
  .object({
    frequency: ReportFrequency,
    minute: z.number().int().min(0).max(59).default(0),
    hour: z.number().int().min(0).max(23).default(8),
    /** ISO weekday, 1 = Monday .. 7 = Sunday (weekly). */
    weekday: z.number().int().min(1).max(7).default(1),
    /** 1..31 (monthly); a shorter month runs on its last day. */
    monthDay: z.number().int().min(1).max(31).default(1),
  })
  .superRefine((s, ctx) => {
    if (s.frequency === 'half_hour' && s.minute >= 30) ctx.addIssue({ code: 'too_big', origin: 'number', maximum: 29, inclusive: true, path: ['minute'], message: 'Every half hour runs at this minute and 30 minutes later: 0 to 29' });
  });
export type ReportSchedule = z.infer<typeof ReportSchedule>;

const HostName = z.string().trim().min(1, 'Required').max(253).regex(/^[A-Za-z0-9.:[\]-]+$/, 'A host name or an IP address');
const RemoteDir = z.string().trim().max(500).regex(/^\/[^\0]*$/, 'An absolute directory, starting with /').default('/');

export const EmailTarget = z.object({
  type: z.literal('email'),
  /** null: the account's active mail provider at each run. */
  mailProviderId: z.string().uuid().nullable().default(null),
  recipients: z.array(Email).min(1).max(REPORT_LIMITS.maxRecipients),
});
const sftpFields = {
  type: z.literal('sftp'),
  host: HostName,
  port: z.number().int().min(1).max(65535).default(REPORT_LIMITS.sftpDefaultPort),
  username: z.string().trim().min(1, 'Required').max(200),
  /** The directory the file is uploaded to. */
  path: RemoteDir,
};
export const SftpTargetInput = z.object({
  ...sftpFields,
  /** Write-only; absent on an edit keeps the stored one. */
  password: z.string().min(1).max(500).optional(),
  /** An OpenSSH/PEM private key; write-only like the password. */
  privateKey: z.string().min(1).max(20_000).optional(),
  /** The server's host key fingerprint to pin: absent keeps the pinned one, null forgets it. */
  hostKeyFingerprint: HostKeyFingerprintInput,
});
export const ReportTargetInput = z.discriminatedUnion('type', [EmailTarget, SftpTargetInput]);
export type ReportTargetInput = z.infer<typeof ReportTargetInput>;

export const SftpTarget = z.object({
  ...sftpFields, hasPassword: z.boolean(), hasPrivateKey: z.boolean(),
  /** The pinned host key fingerprint; null until the first delivery pins the key it meets. */
  hostKeyFingerprint: z.string().nullable(),
});
export const ReportTarget = z.discriminatedUnion('type', [EmailTarget, SftpTarget]);
export type ReportTarget = z.infer<typeof ReportTarget>;

/** The messages report takes only its range. */
export const CommunicationReportQuery = z.object({});
/** The acquisition report is the activity table by source over the report's days: nothing to choose. */
export const AcquisitionReportQuery = z.object({});

const common = {
  name: Name,
  range: ReportRange.default('last7Days'),
  schedule: ReportSchedule,
  format: ExportFormat.default('csv'),
  target: ReportTargetInput,
  active: z.boolean().default(true),
};

export const ReportInput = z
  .discriminatedUnion('kind', [
    z.object({ ...common, kind: z.literal('explore'), query: ExploreQuery }),
    z.object({ ...common, kind: z.literal('funnel'), query: FunnelQuery }),
    z.object({ ...common, kind: z.literal('cohort'), query: CohortQuery }),
    z.object({ ...common, kind: z.literal('communication'), query: CommunicationReportQuery.default({}) }),
    z.object({ ...common, kind: z.literal('acquisition'), query: AcquisitionReportQuery.default({}) }),
  ])
  .superRefine((value, ctx) => {
    const q = value.query as { startDay?: unknown; endDay?: unknown };
    if (q.startDay !== undefined || q.endDay !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['query', q.startDay !== undefined ? 'startDay' : 'endDay'], message: 'A report\'s days come from its relative range' });
    }
  });
export type ReportInput = z.infer<typeof ReportInput>;

export const ReportRunTrigger = z.enum(['schedule', 'manual']);

export const ReportRun = z.object({
  id: z.string().uuid(),
  reportId: z.string().uuid(),
  /** The scheduled slot it was recorded for; null for "Run now". */
  slot: z.string().nullable(),
  trigger: ReportRunTrigger,
  startDay: z.string(),
  endDay: z.string(),
  status: ExportStatus,
  /** Data rows written (headers not counted; every table of a zip). */
  rowCount: z.number().nullable(),
  byteSize: z.number().nullable(),
  fileName: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  warning: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** While it retries: the last attempt's failure. */
  lastError: z.string().nullable(),
  attempts: z.number(),
  /** When the next attempt runs, while it retries. */
  retryAt: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReportRun = z.infer<typeof ReportRun>;

export const Report = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  kind: ReportKind,
  query: z.record(z.string(), z.unknown()),
  range: ReportRange,
  schedule: z.object({ frequency: ReportFrequency, minute: z.number(), hour: z.number(), weekday: z.number(), monthDay: z.number() }),
  format: ExportFormat,
  target: ReportTarget,
  active: z.boolean(),
  /** The next slot (ISO instant); null when inactive. */
  nextRunAt: z.string().nullable(),
  /** The app's time zone the schedule runs in. */
  timezone: z.string(),
  lastRun: ReportRun.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Report = z.infer<typeof Report>;
