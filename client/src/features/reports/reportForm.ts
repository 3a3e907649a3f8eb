/**
 * The scheduled report form's values, the body they make (checked by the shared ReportInput, the
 * one validation), a saved report back into values, and the schedule said in words. The form keeps
 * both targets' fields so switching between e-mail and SFTP loses nothing; the body keeps the
 * chosen one's only. SFTP secrets are write-only: an edit starts with them empty (kept). The SFTP
 * server's host key follows ui/hostKey.ts: the pinned fingerprint shown, forgotten (sent
 * as null) or replaced by a typed one; otherwise none is sent (kept, or forgotten by the server
 * when the host or port changed).
 *
 * Funnel and cohort reports take their query as JSON (`queryJson`, the body the funnel and cohort
 * screens send, without days): the page can be opened with `?kind=funnel&query=<json>` so those
 * screens link here with their current query; their builders are not duplicated in this form.
 */
import { ReportInput, type Report, type ReportFrequency, type ReportKind, type ReportRange } from '@gd/shared/schemas/reports';
import type { ExploreBreakdown, ExploreMetric } from '@gd/shared/schemas/behaviour';
import type { TimeGroup } from '@gd/shared/enums';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { schemaValidator } from '../../ui/forms.ts';
import { hostKeyField, hostKeyState, type HostKeyState, type PinnedHostKey } from '../../ui/hostKey.ts';

export interface ReportFormValues {
  name: string;
  kind: ReportKind;
  query: { event: string; metric: ExploreMetric; breakdown: ExploreBreakdown | ''; property: string; timeGroup: TimeGroup; compare: boolean };
  /** Funnel and cohort: the query as JSON. */
  queryJson: string;
  range: ReportRange;
  schedule: { frequency: ReportFrequency; minute: number; hour: number; weekday: number; monthDay: number };
  format: 'csv' | 'zip';
  target: {
    type: 'email' | 'sftp'; mailProviderId: string; recipients: string[];
    host: string; port: number; username: string; password: string; privateKey: string; path: string;
    /** A host key fingerprint typed in (in advance, or replacing the pinned one; empty: none). */
    hostKeyFingerprint: string;
    /** Forget the pinned host key (the next delivery pins the key it meets). */
    forgetHostKey: boolean;
    /** The report's pinned host key and the server it was pinned for (read-only; null: none). */
    pinnedHostKey: PinnedHostKey | null;
  };
  active: boolean;
}

/** Kinds the form offers as runnable (the server refuses the others with `kind_unavailable`). */
export const FORM_KINDS: readonly ReportKind[] = ['explore', 'funnel', 'cohort', 'communication', 'acquisition'];

/** A starting query for the JSON kinds. */
export const QUERY_TEMPLATES: Partial<Record<ReportKind, unknown>> = {
  funnel: { steps: [{ event: 'gd_start_session', filters: [] }, { event: 'purchase', filters: [] }], window: { value: 7, unit: 'day' }, order: 'sequential' },
  cohort: { start: { event: 'gd_install', filters: [] }, return: null, period: 'week', periods: 8, returnOn: 'on' },
};
const jsonKind = (kind: ReportKind) => kind === 'funnel' || kind === 'cohort';

/** New-report values for a kind and query handed over in the page's URL (from the funnel or cohort screen). */
export function valuesFromUrl(search: string): Partial<ReportFormValues> {
  const params = new URLSearchParams(search);
  const kind = params.get('kind');
  if (kind !== 'funnel' && kind !== 'cohort' && kind !== 'explore') return {};
  const raw = params.get('query');
  if (kind === 'explore') {
    try {
      const q = (raw ? JSON.parse(raw) : {}) as Partial<ReportFormValues['query']>;
      return { kind, query: { ...initialReportValues().query, ...q, breakdown: q.breakdown ?? '', property: q.property ?? '' } };
    } catch {
      return { kind };
    }
  }
  const { startDay: _s, endDay: _e, ...query } = (() => {
    try {
      return (raw ? JSON.parse(raw) : QUERY_TEMPLATES[kind]) as Record<string, unknown>;
    } catch {
      return QUERY_TEMPLATES[kind] as Record<string, unknown>;
    }
  })();
  return { kind, queryJson: JSON.stringify(query, null, 2) };
}

export function initialReportValues(report?: Report): ReportFormValues {
  const q = (report?.query ?? {}) as Partial<Record<string, unknown>>;
  const t = report?.target;
  return {
    name: report?.name ?? '',
    kind: report?.kind ?? 'explore',
    query: {
      event: typeof q.event === 'string' ? q.event : '',
      metric: (q.metric as ExploreMetric | undefined) ?? 'events',
      breakdown: (q.breakdown as ExploreBreakdown | undefined) ?? '',
      property: typeof q.property === 'string' ? q.property : '',
      timeGroup: (q.timeGroup as TimeGroup | undefined) ?? 'day',
      compare: q.compare === true,
    },
    queryJson: report && jsonKind(report.kind) ? JSON.stringify(report.query, null, 2) : '',
    range: report?.range ?? 'last7Days',
    schedule: report ? { ...report.schedule } : { frequency: 'daily', minute: 0, hour: 8, weekday: 1, monthDay: 1 },
    format: report?.format ?? 'csv',
    target: {
      type: t?.type ?? 'email',
      mailProviderId: t?.type === 'email' ? (t.mailProviderId ?? '') : '',
      recipients: t?.type === 'email' ? [...t.recipients] : [],
      host: t?.type === 'sftp' ? t.host : '',
      port: t?.type === 'sftp' ? t.port : 22,
      username: t?.type === 'sftp' ? t.username : '',
      password: '',
      privateKey: '',
      path: t?.type === 'sftp' ? t.path : '/',
      hostKeyFingerprint: '',
      forgetHostKey: false,
      pinnedHostKey: t?.type === 'sftp' && t.hostKeyFingerprint ? { fingerprint: t.hostKeyFingerprint, host: t.host, port: t.port } : null,
    },
    active: report?.active ?? true,
  };
}

/** The SFTP target's host key state for the form (ui/hostKey.ts). */
export const targetHostKeyState = (t: ReportFormValues['target']): HostKeyState => hostKeyState(t);

/** The request body of the values (what ReportInput checks). */
export function reportBody(v: ReportFormValues): Record<string, unknown> {
  let parsed: unknown = null;
  if (jsonKind(v.kind)) {
    try {
      parsed = JSON.parse(v.queryJson || 'null');
    } catch {
      parsed = null;
    }
  }
  const query = jsonKind(v.kind) ? parsed : v.kind === 'explore'
    ? {
        event: v.query.event, metric: v.query.metric, timeGroup: v.query.timeGroup, compare: v.query.compare,
        ...(v.query.breakdown ? { breakdown: v.query.breakdown } : {}),
        ...(v.query.breakdown === 'property' ? { property: v.query.property } : {}),
      }
    : {};
  const t = v.target;
  const hostKey = hostKeyField(targetHostKeyState(t), t.hostKeyFingerprint);
  const target = t.type === 'email'
    ? { type: 'email', mailProviderId: t.mailProviderId || null, recipients: t.recipients }
    : {
        type: 'sftp', host: t.host, port: t.port, username: t.username, path: t.path,
        ...(t.password ? { password: t.password } : {}), ...(t.privateKey ? { privateKey: t.privateKey } : {}),
        ...(hostKey !== undefined ? { hostKeyFingerprint: hostKey } : {}),
      };
  return { name: v.name, kind: v.kind, query, range: v.range, schedule: v.schedule, format: v.format, target, active: v.active };
}

/** The form's validate function: the shared schema over the body; refinements get the form's words. */
export function validateReportForm(values: ReportFormValues, t: TFunction): Record<string, string> {
  const errors = schemaValidator<ReportFormValues>(ReportInput, t, {
    kind: 'reports.issue.acquisition_unavailable', 'query.property': 'validation.required', 'target.hostKeyFingerprint': 'imports.hostKey.invalid',
  }, reportBody)(values);
  // Recipients are checked one by one by the schema; the form shows it on the list.
  for (const key of Object.keys(errors)) {
    if (key.startsWith('target.recipients.')) errors['target.recipients'] ??= errors[key] ?? '';
    // A JSON query's problems show on its text, with where they are.
    if (jsonKind(values.kind) && (key === 'query' || key.startsWith('query.'))) errors.queryJson ??= key === 'query' ? t('reports.fields.queryInvalid') : `${key.slice(6)}: ${errors[key] ?? ''}`;
  }
  return errors;
}

/** The reason codes the server sends on fields, as the form says them. */
export function reportIssueText(t: TFunction, message: string): string | undefined {
  const key = `reports.issue.${message}` as TKey;
  const known = ['kind_unavailable', 'acquisition_unavailable', 'no_active_provider', 'not_found', 'private_address', 'host_not_found', 'password_again', 'password_or_key', 'name_taken'];
  return known.includes(message) ? t(key) : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "Daily at 08:00", "Every Monday at 07:30"... in the app's time zone. */
export function scheduleText(s: Report['schedule'], t: TFunction): string {
  const time = `${pad(s.hour)}:${pad(s.minute)}`;
  switch (s.frequency) {
    case 'hourly': return t('reports.scheduleText.hourly', { minute: pad(s.minute) });
    case 'half_hour': return t('reports.scheduleText.half_hour', { minute: pad(s.minute), minute2: pad(s.minute + 30) });
    case 'daily': return t('reports.scheduleText.daily', { time });
    case 'weekly': return t('reports.scheduleText.weekly', { weekday: t(`reports.weekday.${s.weekday}` as TKey), time });
    case 'monthly': return t('reports.scheduleText.monthly', { day: s.monthDay, time });
    default: {
      const never: never = s.frequency;
      return String(never);
    }
  }
}

/** A size in bytes as B, KB or MB. */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
