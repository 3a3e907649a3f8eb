/**
 * The cohort query as the page keeps it: in the URL, so a view can be bookmarked, shared and
 * reopened (?start=&sf=&ret=&rf=&mode=&period=&periods=&on=&bd=&seg=). Filters travel as JSON (`sf`,
 * `rf`); the breakdown as `attribute:<field>` or `property:<name>`; `seg` is the breakdown segment
 * the table shows. The range comes from the shell's date range (its time group is not used: the
 * period is the cohort's). Unknown or malformed values fall back to the defaults instead of failing.
 * In entities/ because the dashboard's "Add widget" dialog (features/dashboards/widgetBuilders.ts)
 * builds its retention widgets with `cohortQuery` too, the same query the cohort screen would add.
 */
import { z } from 'zod';
import type { DateRange } from '@gd/shared/dateRange';
import { PersonAttribute, PropertyFilter, type PersonBreakdown } from '@gd/shared/schemas/analyticsQuery';
import { CohortMode, CohortPeriod, MAX_COHORT_PERIODS, ReturnOn, type CohortQueryInput } from '@gd/shared/schemas/cohorts';

export interface CohortState {
  start: string | null;
  startFilters: PropertyFilter[];
  /** null = any event. */
  returnEvent: string | null;
  returnFilters: PropertyFilter[];
  mode: CohortMode;
  period: CohortPeriod;
  periods: number | null;
  returnOn: ReturnOn;
  breakdown: PersonBreakdown | null;
  segment: string | null;
}

export const DEFAULT_COHORT_STATE: CohortState = {
  start: null, startFilters: [], returnEvent: null, returnFilters: [], mode: 'first', period: 'week', periods: null, returnOn: 'on', breakdown: null, segment: null,
};

const text = (value: string | null) => (value?.trim() ? value.trim() : null);
const Filters = z.array(PropertyFilter).max(5);

function readFilters(raw: string | null): PropertyFilter[] {
  if (!raw) return [];
  try {
    const parsed = Filters.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function readBreakdown(raw: string | null): PersonBreakdown | null {
  if (!raw) return null;
  const [kind, ...rest] = raw.split(':');
  const value = rest.join(':').trim();
  if (kind === 'attribute') {
    const field = PersonAttribute.safeParse(value);
    return field.success ? { kind: 'attribute', field: field.data } : null;
  }
  if (kind === 'property' && value) return { kind: 'property', property: value.slice(0, 64) };
  return null;
}

export function readCohortState(params: URLSearchParams): CohortState {
  const mode = CohortMode.safeParse(params.get('mode'));
  const period = CohortPeriod.safeParse(params.get('period'));
  const on = ReturnOn.safeParse(params.get('on'));
  const periods = Number(params.get('periods'));
  return {
    start: text(params.get('start')),
    startFilters: readFilters(params.get('sf')),
    returnEvent: text(params.get('ret')),
    returnFilters: text(params.get('ret')) ? readFilters(params.get('rf')) : [],
    mode: mode.success ? mode.data : DEFAULT_COHORT_STATE.mode,
    period: period.success ? period.data : DEFAULT_COHORT_STATE.period,
    periods: Number.isInteger(periods) && periods >= 1 && periods <= MAX_COHORT_PERIODS ? periods : null,
    returnOn: on.success ? on.data : DEFAULT_COHORT_STATE.returnOn,
    breakdown: readBreakdown(params.get('bd')),
    segment: text(params.get('seg')),
  };
}

/** The URL parameters of a state, defaults left out. */
export function writeCohortState(state: CohortState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.start) params.set('start', state.start);
  if (state.startFilters.length) params.set('sf', JSON.stringify(state.startFilters));
  if (state.returnEvent) params.set('ret', state.returnEvent);
  if (state.returnEvent && state.returnFilters.length) params.set('rf', JSON.stringify(state.returnFilters));
  if (state.mode !== DEFAULT_COHORT_STATE.mode) params.set('mode', state.mode);
  if (state.period !== DEFAULT_COHORT_STATE.period) params.set('period', state.period);
  if (state.periods !== null) params.set('periods', String(state.periods));
  if (state.returnOn !== DEFAULT_COHORT_STATE.returnOn) params.set('on', state.returnOn);
  if (state.breakdown) params.set('bd', state.breakdown.kind === 'attribute' ? `attribute:${state.breakdown.field}` : `property:${state.breakdown.property}`);
  if (state.breakdown && state.segment) params.set('seg', state.segment);
  return params;
}

/** Filters with a value where one is needed (the others wait in the editor until complete). */
export const completeFilters = (filters: readonly PropertyFilter[]) => filters.filter((f) => f.op === 'set' || f.op === 'notSet' || (f.value !== undefined && f.value !== ''));

/** The cohort endpoint's body for a state and range, or null while it cannot run (no start event). */
export function cohortQuery(state: CohortState, range: Pick<DateRange, 'startDay' | 'endDay'>): CohortQueryInput | null {
  if (!state.start) return null;
  return {
    startDay: range.startDay, endDay: range.endDay,
    start: { event: state.start, filters: completeFilters(state.startFilters) },
    return: state.returnEvent ? { event: state.returnEvent, filters: completeFilters(state.returnFilters) } : null,
    mode: state.mode, period: state.period, returnOn: state.returnOn,
    ...(state.periods !== null ? { periods: state.periods } : {}),
    ...(state.breakdown ? { breakdown: state.breakdown } : {}),
  };
}
