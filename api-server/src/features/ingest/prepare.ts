/**
 * Pure preparation of an ingestion batch: each event and interaction is validated on its own, so a
 * bad one is refused with a reason while the others go on; repeated ids inside one batch count as
 * duplicates; far-future times are clamped to the receive time and reported; late times are kept,
 * back to `earliest` (the app's creation minus INGEST_LIMITS.pastToleranceMs): older ones are refused.
 * `activitySpan` is when a batch shows its device active, for the device's first and last seen.
 */
import {
  ErrorCode, INGEST_LIMITS, IngestEvent, IngestInteraction, eventNameProblem, type RejectedItem,
} from '@gd/shared';

export interface EventRow {
  clientId: string;
  time: Date;
  name: string;
  properties: Record<string, unknown>;
  revenue: number | null;
  currency: string | null;
  source: string | null;
  campaign: string | null;
  sessionId: string | null;
}

export interface InteractionRow {
  clientId: string;
  time: Date;
  channel: string;
  kind: string;
  campaignId: string | null;
  messageId: string | null;
  journeyId: string | null;
  variantId: string | null;
  stepId: string | null;
}

export interface Prepared<Row> {
  rows: Row[];
  /** Ids repeated inside this batch (the first occurrence is kept). */
  repeated: string[];
  rejected: RejectedItem[];
  clamped: { id: string; time: string }[];
}

const idOf = (raw: unknown): string | null => {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id.slice(0, INGEST_LIMITS.maxIdLength * 2) : null;
};

function reasonOf(issues: readonly { path: PropertyKey[]; message: string; issues?: readonly { message: string }[] }[]): string {
  const first = issues[0];
  if (!first) return 'Invalid';
  const where = first.path.length ? `${first.path.map(String).join('.')}: ` : '';
  // A refused record key says why (zod answers "Invalid key in record" and keeps the reason inside).
  return `${where}${first.issues?.[0]?.message ?? first.message}`;
}

/** Event time: kept when in the past (late events), clamped when too far ahead of `now`. */
function timeOf(raw: string | number, now: Date): { time: Date; clamped: boolean } {
  const time = new Date(raw);
  if (time.getTime() > now.getTime() + INGEST_LIMITS.futureToleranceMs) return { time: now, clamped: true };
  return { time, clamped: false };
}

/** What bounds accepted times: the receive time, and the earliest time accepted. */
export interface TimeBounds { now: Date; earliest?: Date | undefined }

/** The earliest event time an app accepts (see INGEST_LIMITS.pastToleranceMs). */
export const earliestFor = (appCreatedAt: Date): Date => new Date(appCreatedAt.getTime() - INGEST_LIMITS.pastToleranceMs);

function prepareAll<Row extends { clientId: string; time: Date }>(
  items: readonly unknown[],
  { now, earliest }: TimeBounds,
  parse: (raw: unknown) => { ok: true; row: Row; rawTime: string | number } | { ok: false; reason: string },
): Prepared<Row> {
  const out: Prepared<Row> = { rows: [], repeated: [], rejected: [], clamped: [] };
  const seen = new Set<string>();
  items.forEach((raw, index) => {
    const parsed = parse(raw);
    if (!parsed.ok) {
      out.rejected.push({ index, id: idOf(raw), code: ErrorCode.MANDATORY, reason: parsed.reason });
      return;
    }
    const { row } = parsed;
    if (seen.has(row.clientId)) {
      out.repeated.push(row.clientId);
      return;
    }
    seen.add(row.clientId);
    const { time, clamped } = timeOf(parsed.rawTime, now);
    if (earliest && time.getTime() < earliest.getTime()) {
      out.rejected.push({ index, id: row.clientId, code: ErrorCode.MANDATORY, reason: `time: earlier than ${earliest.toISOString()} (two years before the app was created)` });
      return;
    }
    row.time = time;
    if (clamped) out.clamped.push({ id: row.clientId, time: time.toISOString() });
    out.rows.push(row);
  });
  return out;
}

export function prepareEvents(items: readonly unknown[], bounds: TimeBounds): Prepared<EventRow> {
  return prepareAll(items, bounds, (raw) => {
    const parsed = IngestEvent.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: reasonOf(parsed.error.issues) };
    const e = parsed.data;
    const problem = eventNameProblem(e.name);
    if (problem === 'pattern') return { ok: false, reason: 'name: letters, digits, _ . : - only, starting with a letter, up to 64 characters' };
    if (problem === 'reserved') return { ok: false, reason: 'name: the gd_ prefix is reserved for built-in events' };
    const properties = e.properties ?? {};
    if (Object.keys(properties).length > INGEST_LIMITS.maxPropertyKeys) return { ok: false, reason: `properties: at most ${INGEST_LIMITS.maxPropertyKeys} keys` };
    if (JSON.stringify(properties).length > INGEST_LIMITS.maxPropertiesBytes) return { ok: false, reason: `properties: at most ${INGEST_LIMITS.maxPropertiesBytes} bytes` };
    if (e.currency !== undefined && e.revenue === undefined) return { ok: false, reason: 'currency: given without revenue' };
    return {
      ok: true,
      rawTime: e.time,
      row: {
        clientId: e.id, time: new Date(0), name: e.name, properties, revenue: e.revenue ?? null,
        currency: e.currency ?? null, source: e.source ?? null, campaign: e.campaign ?? null, sessionId: e.sessionId ?? null,
      },
    };
  });
}

export function prepareInteractions(items: readonly unknown[], bounds: TimeBounds): Prepared<InteractionRow> {
  return prepareAll(items, bounds, (raw) => {
    const parsed = IngestInteraction.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: reasonOf(parsed.error.issues) };
    const i = parsed.data;
    return {
      ok: true,
      rawTime: i.time,
      row: {
        clientId: i.id, time: new Date(0), channel: i.channel, kind: i.kind, campaignId: i.campaignId ?? null,
        messageId: i.messageId ?? null, journeyId: i.journeyId ?? null, variantId: i.variantId ?? null, stepId: i.stepId ?? null,
      },
    };
  });
}

export interface ActivitySpan { first: Date; last: Date }

/**
 * When a batch shows its device active: the earliest and latest of its event times, as the SDK
 * sent them (after the clamp above), never later than `now` (the arrival). A clock running up to
 * INGEST_LIMITS.futureToleranceMs fast keeps its times on the events, but "last seen" does not go
 * into the future. Null without events. Only events count, so "last seen" is the newest event of
 * the person's timeline: message interactions are not all the person's doing (a push impression is
 * the system showing it), and the ones that are (a click, an open) come with the app's own events.
 * Identify and profile calls carry no time of their own and never count (see repository.ts).
 */
export function activitySpan(rows: readonly { time: Date }[], now: Date): ActivitySpan | null {
  if (rows.length === 0) return null;
  let first = Infinity;
  let last = -Infinity;
  for (const { time } of rows) {
    const t = Math.min(time.getTime(), now.getTime());
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return { first: new Date(first), last: new Date(last) };
}
