/**
 * The widget the dashboard's "Add widget" dialog builds from its fields (pure): a key figure, a
 * chart, a funnel or a retention table, each checked with NewWidget (dashboard/model.ts).
 *
 * Decisions:
 * - Funnel and retention queries come from the query builders of their screens (entities/funnel
 *   `funnelQuery`, entities/cohort `cohortQuery`), then lose their range (`withoutRange`), exactly
 *   as those screens' "Add to dashboard" stores them; the dashboard's window supplies the range
 *   when the widget runs. The builders want a range, so they get the window's days; nothing of it
 *   is kept.
 * - The dialog offers the parts a funnel or a retention table is mostly made of: funnel steps
 *   (FUNNEL_LIMITS: 2 to 20, each an event of the catalogue, repeats allowed, in order), the
 *   conversion window and the order; retention's start event, return event (or any event) and
 *   period. The rest takes the screens' defaults (DEFAULT_FUNNEL: 7 days, in order, first-touch
 *   attribution; DEFAULT_COHORT_STATE: a week, first time, "on the period"); filters, exclusions
 *   and breakdowns are built on the screens and added from there.
 * - Problems are values (`draftProblems`), one per field, which the dialog shows in the field.
 * - Default titles are those of the screens' "Add to dashboard": the steps' labels joined by
 *   arrows for a funnel, "Cohort: <start event>" for retention, "<event> · <metric>" otherwise.
 */
import { NewWidget, WIDGET_TITLE_MAX, withoutRange, type DayRangeOf } from '@gd/shared/dashboard/model';
import type { ExploreBreakdown, ExploreMetric } from '@gd/shared/schemas/behaviour';
import type { CohortPeriod } from '@gd/shared/schemas/cohorts';
import type { FunnelOrder, WindowUnit } from '@gd/shared/schemas/funnels';
import { FUNNEL_LIMITS, FunnelWindow } from '@gd/shared/schemas/funnels';
import { DEFAULT_COHORT_STATE, cohortQuery } from '../../entities/cohort/cohortState.ts';
import { DEFAULT_FUNNEL, funnelQuery } from '../../entities/funnel/funnelState.ts';

export const WIDGET_KINDS = ['kpi', 'explore', 'funnel', 'cohort'] as const;
export type DraftKind = (typeof WIDGET_KINDS)[number];

/** The dialog's fields ('' = not chosen; `returnEvent` '' = any event). */
export interface WidgetDraft {
  kind: DraftKind;
  title: string;
  event: string;
  metric: ExploreMetric;
  breakdown: ExploreBreakdown | '';
  property: string;
  steps: string[];
  windowValue: number | string;
  windowUnit: WindowUnit;
  order: FunnelOrder;
  start: string;
  returnEvent: string;
  period: CohortPeriod;
}

export const DEFAULT_DRAFT: WidgetDraft = {
  kind: 'kpi', title: '', event: '', metric: 'events', breakdown: '', property: '',
  steps: Array.from({ length: FUNNEL_LIMITS.minSteps }, () => ''), windowValue: DEFAULT_FUNNEL.window.value, windowUnit: DEFAULT_FUNNEL.window.unit, order: DEFAULT_FUNNEL.order,
  start: '', returnEvent: '', period: DEFAULT_COHORT_STATE.period,
};

export type DraftProblem =
  | { path: string; code: 'choose' | 'required' }
  | { path: 'steps'; code: 'stepCount' }
  | { path: 'windowValue'; code: 'windowInvalid' | 'windowTooLong' };

const windowOf = (d: WidgetDraft) => ({ value: typeof d.windowValue === 'number' ? d.windowValue : Number(d.windowValue), unit: d.windowUnit });

/** What keeps the draft from making a widget, by field; none when it can be built. */
export function draftProblems(d: WidgetDraft): DraftProblem[] {
  const out: DraftProblem[] = [];
  switch (d.kind) {
    case 'kpi':
    case 'explore':
      if (!d.event) out.push({ path: 'event', code: 'choose' });
      if (d.kind === 'explore' && d.breakdown === 'property' && d.property.trim() === '') out.push({ path: 'property', code: 'required' });
      break;
    case 'funnel': {
      if (d.steps.length < FUNNEL_LIMITS.minSteps || d.steps.length > FUNNEL_LIMITS.maxSteps) out.push({ path: 'steps', code: 'stepCount' });
      d.steps.forEach((s, i) => {
        if (!s) out.push({ path: `steps.${i}`, code: 'choose' });
      });
      const w = windowOf(d);
      if (d.windowValue === '') out.push({ path: 'windowValue', code: 'required' });
      else if (!Number.isInteger(w.value) || w.value < 1) out.push({ path: 'windowValue', code: 'windowInvalid' });
      else if (!FunnelWindow.safeParse(w).success) out.push({ path: 'windowValue', code: 'windowTooLong' });
      break;
    }
    case 'cohort':
      if (!d.start) out.push({ path: 'start', code: 'choose' });
      break;
    default: {
      const never: never = d.kind;
      throw new Error(`unknown widget kind ${String(never)}`);
    }
  }
  return out;
}

export interface TitleLabels {
  /** An event's name as the screens show it (label, built-in name). */
  event: (name: string) => string;
  metric: (metric: ExploreMetric) => string;
  /** The retention screen's name ("Cohort"). */
  cohort: string;
}

/** The title a widget gets when none is typed (see above), at most WIDGET_TITLE_MAX characters. */
export function defaultTitle(d: WidgetDraft, labels: TitleLabels): string {
  const title = d.kind === 'funnel'
    ? d.steps.map((s) => (s ? labels.event(s) : '…')).join(' → ')
    : d.kind === 'cohort'
      ? `${labels.cohort}: ${d.start ? labels.event(d.start) : '…'}`
      : `${d.event ? labels.event(d.event) : '…'} · ${labels.metric(d.metric)}`;
  return title.slice(0, WIDGET_TITLE_MAX);
}

/** The kind's query as its screen builds it, without its range; null when it cannot be built. */
function queryOf(d: WidgetDraft, range: DayRangeOf): unknown {
  switch (d.kind) {
    case 'kpi':
      return { event: d.event, metric: d.metric };
    case 'explore': {
      const breakdown = d.breakdown || undefined;
      return { event: d.event, metric: d.metric, ...(breakdown ? { breakdown } : {}), ...(breakdown === 'property' ? { property: d.property.trim() } : {}) };
    }
    case 'funnel': {
      const query = funnelQuery({ ...DEFAULT_FUNNEL, steps: d.steps.map((event) => ({ event: event || null, filters: [] })), window: windowOf(d), order: d.order }, { ...range, timeGroup: 'day' });
      return query && withoutRange(query);
    }
    case 'cohort': {
      const query = cohortQuery({ ...DEFAULT_COHORT_STATE, start: d.start || null, returnEvent: d.returnEvent || null, period: d.period }, range);
      return query && withoutRange(query);
    }
    default: {
      const never: never = d.kind;
      throw new Error(`unknown widget kind ${String(never)}`);
    }
  }
}

export type BuiltWidget = { ok: true; widget: NewWidget } | { ok: false; problems: DraftProblem[]; error: unknown };

/**
 * The widget of a draft over `range` (the dashboard window's days, handed to the screens' query
 * builders and dropped again), titled as typed or by default; its problems when it has any.
 */
export function buildWidget(d: WidgetDraft, range: DayRangeOf, labels: TitleLabels): BuiltWidget {
  const problems = draftProblems(d);
  if (problems.length > 0) return { ok: false, problems, error: null };
  const query = queryOf(d, range);
  const parsed = NewWidget.safeParse({ kind: d.kind, title: (d.title.trim() || defaultTitle(d, labels)).slice(0, WIDGET_TITLE_MAX), query });
  if (!parsed.success) return { ok: false, problems: [], error: parsed.error };
  return { ok: true, widget: parsed.data };
}
