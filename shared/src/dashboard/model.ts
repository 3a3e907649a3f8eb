/**
 * Dashboards: the widget model, the grid rules and the window's ranges (pure; both the web app and
 * the API use them).
 *
 * Decisions:
 * - A widget is `{ id, title, kind, query, x, y, w, h }` on a grid of DASHBOARD_COLUMNS columns
 *   (rows of DASHBOARD_ROW_PX). Its query is its kind's query without the range: the dashboard's
 *   window supplies `startDay`, `endDay` and `timeGroup`. Explore and KPI queries are checked here
 *   (`ExploreWidgetQuery`, `KpiWidgetQuery`); funnel and cohort queries are kept as the objects
 *   their screens built and checked with their own schemas (FunnelQuery, CohortQuery) when a
 *   widget runs, so a query that no longer parses shows as that widget's error, never as a broken
 *   dashboard.
 * - Window types (SPEC §3 "dashboard window types"): `day` = today, `week` = this ISO week
 *   (Monday to today), `month` = this calendar month (the 1st to today), all days in the app's
 *   time zone. Charts show the window so far: hours (24 buckets HH:00) for a day, days for a week
 *   or a month. A KPI compares the window so far with the same stretch of the previous window
 *   (yesterday; last week Monday to the same weekday; last month the 1st to the same day, clipped
 *   to that month's end), so a Wednesday is never compared with a whole week. A day compares
 *   with the whole of yesterday: daily figures cannot be cut at the current hour for distinct
 *   people.
 * - Placing a new widget: at the top-left-most free place where it fits (scanning rows from the
 *   top, columns from the left) below or beside the others; a layout with overlaps (two people
 *   moving widgets at once) is resolved by `resolveCollisions`, which keeps the widgets in reading
 *   order and pushes each one down below whatever it overlaps, deterministically (every client
 *   draws the same grid from the same document).
 */
import { z } from 'zod';
import { addDays } from '../dateRange.ts';
import { DashboardWindow } from '../enums.ts';
import { EventNameParam, ExploreBreakdown, ExploreMetric } from '../schemas/behaviour.ts';

export const DASHBOARD_COLUMNS = 12;
export const DASHBOARD_ROW_PX = 40;
/** Most widgets on one dashboard. */
export const MAX_WIDGETS = 40;
/** Widget sizes: [min, max] in columns and rows. */
export const WIDGET_W: readonly [number, number] = [2, DASHBOARD_COLUMNS];
export const WIDGET_H: readonly [number, number] = [2, 16];
/** Default size per kind (columns × rows). */
export const DEFAULT_SIZE = {
  explore: { w: 6, h: 7 },
  funnel: { w: 6, h: 7 },
  cohort: { w: 12, h: 8 },
  kpi: { w: 3, h: 3 },
} as const;

export { DashboardWindow };
export type DashboardWindow = z.infer<typeof DashboardWindow>;
export const WidgetKind = z.enum(['explore', 'funnel', 'cohort', 'kpi']);
export type WidgetKind = z.infer<typeof WidgetKind>;

export const WIDGET_TITLE_MAX = 120;
export const WidgetTitle = z.string().trim().min(1).max(WIDGET_TITLE_MAX);

/** An explore query without its range (the dashboard's window gives it). */
export const ExploreWidgetQuery = z
  .object({
    event: EventNameParam,
    metric: ExploreMetric.default('events'),
    breakdown: ExploreBreakdown.optional(),
    property: z.string().trim().min(1).max(64).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.breakdown === 'property' && !value.property) ctx.addIssue({ code: 'custom', path: ['property'], message: 'Name the property to break down by' });
    if (value.breakdown !== 'property' && value.property !== undefined) ctx.addIssue({ code: 'custom', path: ['property'], message: 'A property is given only with breakdown=property' });
  });
export type ExploreWidgetQuery = z.infer<typeof ExploreWidgetQuery>;

/** A KPI: one event's metric over the window, total and variation (no breakdown). */
export const KpiWidgetQuery = z.object({ event: EventNameParam, metric: ExploreMetric.default('events') });
export type KpiWidgetQuery = z.infer<typeof KpiWidgetQuery>;

/** Funnel and cohort queries as their screens built them, range fields removed (see above). */
export const OpaqueWidgetQuery = z.record(z.string(), z.unknown());

const RANGE_KEYS = ['startDay', 'endDay', 'timeGroup', 'compare'] as const;
/** A query without the fields the dashboard supplies (range, time group, comparison). */
export function withoutRange(query: unknown): Record<string, unknown> {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return {};
  const out: Record<string, unknown> = { ...(query as Record<string, unknown>) };
  for (const k of RANGE_KEYS) delete out[k];
  return out;
}

const cell = z.number().int();
export const WidgetPlacement = z.object({
  x: cell.min(0).max(DASHBOARD_COLUMNS - 1),
  y: cell.min(0).max(10_000),
  w: cell.min(WIDGET_W[0]).max(WIDGET_W[1]),
  h: cell.min(WIDGET_H[0]).max(WIDGET_H[1]),
});
export type WidgetPlacement = z.infer<typeof WidgetPlacement>;

const widgetBase = { id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/), title: WidgetTitle, ...WidgetPlacement.shape };
export const Widget = z.discriminatedUnion('kind', [
  z.object({ ...widgetBase, kind: z.literal('explore'), query: ExploreWidgetQuery }),
  z.object({ ...widgetBase, kind: z.literal('kpi'), query: KpiWidgetQuery }),
  z.object({ ...widgetBase, kind: z.literal('funnel'), query: OpaqueWidgetQuery }),
  z.object({ ...widgetBase, kind: z.literal('cohort'), query: OpaqueWidgetQuery }),
]);
export type Widget = z.infer<typeof Widget>;

/** What a screen hands over to put on a dashboard (AddToDashboard). */
export const NewWidget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('explore'), title: WidgetTitle, query: ExploreWidgetQuery }),
  z.object({ kind: z.literal('kpi'), title: WidgetTitle, query: KpiWidgetQuery }),
  z.object({ kind: z.literal('funnel'), title: WidgetTitle, query: OpaqueWidgetQuery }),
  z.object({ kind: z.literal('cohort'), title: WidgetTitle, query: OpaqueWidgetQuery }),
]);
export type NewWidget = z.infer<typeof NewWidget>;

/** A widget's width clipped to the grid and its x so it fits; sizes clamped to their bounds. */
export function clampPlacement(p: WidgetPlacement): WidgetPlacement {
  const w = Math.min(WIDGET_W[1], Math.max(WIDGET_W[0], Math.round(p.w)));
  const h = Math.min(WIDGET_H[1], Math.max(WIDGET_H[0], Math.round(p.h)));
  const x = Math.min(DASHBOARD_COLUMNS - w, Math.max(0, Math.round(p.x)));
  const y = Math.max(0, Math.round(p.y));
  return { x, y, w, h };
}

export const overlaps = (a: WidgetPlacement, b: WidgetPlacement): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The first free place (top to bottom, left to right) for a w×h widget among `placed`. */
export function placeNew(placed: readonly WidgetPlacement[], size: { w: number; h: number }): WidgetPlacement {
  const { w, h } = clampPlacement({ x: 0, y: 0, ...size });
  const bottom = placed.reduce((m, p) => Math.max(m, p.y + p.h), 0);
  for (let y = 0; y <= bottom; y++) {
    for (let x = 0; x + w <= DASHBOARD_COLUMNS; x++) {
      const candidate = { x, y, w, h };
      if (!placed.some((p) => overlaps(p, candidate))) return candidate;
    }
  }
  return { x: 0, y: bottom, w, h };
}

/** Reading order: top to bottom, then left to right, then id (a total order every client shares). */
export function byReadingOrder<T extends WidgetPlacement & { id: string }>(a: T, b: T): number {
  return a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The layout without overlaps: widgets in reading order, each pushed down just below the lowest
 * already-placed widget it overlaps, until it overlaps none. Widgets that do not overlap keep
 * their places; the result (in reading order) depends only on the input, not on who computes it.
 */
export function resolveCollisions<T extends WidgetPlacement & { id: string }>(widgets: readonly T[]): T[] {
  const sorted = widgets.map((w) => ({ ...w, ...clampPlacement(w) })).sort(byReadingOrder);
  const placed: T[] = [];
  for (const widget of sorted) {
    let current = widget;
    for (;;) {
      const hits = placed.filter((p) => overlaps(p, current));
      if (hits.length === 0) break;
      current = { ...current, y: Math.max(...hits.map((p) => p.y + p.h)) };
    }
    placed.push(current);
  }
  return placed.sort(byReadingOrder);
}

// ---- the window ----

export interface DayRangeOf { startDay: string; endDay: string }
export interface WindowRanges {
  /** The window so far: its first day to today. */
  current: DayRangeOf;
  /** The same stretch of the previous window (KPI variations). */
  previous: DayRangeOf;
  /** How charts group it: hours for a day, else days. */
  timeGroup: 'hour' | 'day';
}

const weekdayMon0 = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
const daysInMonth = (year: number, month1: number) => new Date(Date.UTC(year, month1, 0)).getUTCDate();

/** The ranges of a window on `today` (YYYY-MM-DD in the app's time zone). */
export function windowRanges(window: DashboardWindow, today: string): WindowRanges {
  switch (window) {
    case 'day': {
      const yesterday = addDays(today, -1);
      return { current: { startDay: today, endDay: today }, previous: { startDay: yesterday, endDay: yesterday }, timeGroup: 'hour' };
    }
    case 'week': {
      const monday = addDays(today, -weekdayMon0(today));
      return {
        current: { startDay: monday, endDay: today },
        previous: { startDay: addDays(monday, -7), endDay: addDays(today, -7) },
        timeGroup: 'day',
      };
    }
    case 'month': {
      const [y, m, d] = today.split('-').map(Number) as [number, number, number];
      const py = m === 1 ? y - 1 : y;
      const pm = m === 1 ? 12 : m - 1;
      const pad = (n: number) => String(n).padStart(2, '0');
      const lastDay = Math.min(d, daysInMonth(py, pm));
      return {
        current: { startDay: `${y}-${pad(m)}-01`, endDay: today },
        previous: { startDay: `${py}-${pad(pm)}-01`, endDay: `${py}-${pad(pm)}-${pad(lastDay)}` },
        timeGroup: 'day',
      };
    }
    default: {
      const never: never = window;
      throw new Error(`unknown window ${String(never)}`);
    }
  }
}

/** Relative change from `previous` to `current`; null when there was nothing before. */
export function variation(current: number, previous: number): number | null {
  return previous === 0 ? null : (current - previous) / previous;
}
