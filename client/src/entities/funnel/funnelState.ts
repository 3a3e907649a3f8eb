/**
 * The funnel as the page keeps it: in the URL (`?funnel=<JSON>`), next to the shell's range
 * parameters, so a funnel can be bookmarked, shared and reopened. While editing, a step may have
 * no event yet and a filter no value; the query runs only once every step names an event and every
 * filter is complete (`funnelQuery`). A URL that does not parse falls back to the default (two
 * empty steps) instead of failing; the range and time group come from the shell's date range.
 * In entities/ because two features build funnel queries with it: the funnels screen, and the
 * dashboard's "Add widget" dialog (features/dashboards/widgetBuilders.ts), so a funnel widget made
 * on the dashboard is the same query the funnels screen would put there.
 */
import { z } from 'zod';
import type { DateRange } from '@gd/shared/dateRange';
import { PersonBreakdown, PropertyFilterOp } from '@gd/shared/schemas/analyticsQuery';
import { FUNNEL_LIMITS, FunnelAttribution, FunnelOrder, FunnelQuery, FunnelWindow, type FunnelQueryInput } from '@gd/shared/schemas/funnels';

const DraftFilter = z.object({ property: z.string().max(64), op: PropertyFilterOp, value: z.union([z.string().max(200), z.number()]).optional() });
export type DraftFilter = z.infer<typeof DraftFilter>;
const DraftStep = z.object({ event: z.string().max(64).nullable(), filters: z.array(DraftFilter).max(5).default([]) });
export type DraftStep = z.infer<typeof DraftStep>;

export const FunnelState = z.object({
  steps: z.array(DraftStep).min(FUNNEL_LIMITS.minSteps).max(FUNNEL_LIMITS.maxSteps),
  window: FunnelWindow,
  order: FunnelOrder,
  exclusions: z.array(z.object({ step: DraftStep, afterStep: z.number().int().min(1) })).max(FUNNEL_LIMITS.maxExclusions),
  /** A property breakdown may have an empty name while it is being typed. */
  breakdown: z.union([PersonBreakdown, z.object({ kind: z.literal('property'), property: z.literal('') })]).nullable(),
  attribution: FunnelAttribution,
  compare: z.boolean(),
});
export type FunnelState = z.infer<typeof FunnelState>;

export const emptyStep = (): DraftStep => ({ event: null, filters: [] });
export const DEFAULT_FUNNEL: FunnelState = {
  steps: [emptyStep(), emptyStep()], window: { value: 7, unit: 'day' }, order: 'sequential', exclusions: [], breakdown: null, attribution: 'first', compare: false,
};

export function readFunnelState(params: URLSearchParams): FunnelState {
  const raw = params.get('funnel');
  if (!raw) return DEFAULT_FUNNEL;
  try {
    const parsed = FunnelState.safeParse(JSON.parse(raw));
    return parsed.success ? normalize(parsed.data) : DEFAULT_FUNNEL;
  } catch {
    return DEFAULT_FUNNEL;
  }
}

/** The URL parameters of a state (none for the default). */
export function writeFunnelState(state: FunnelState): URLSearchParams {
  const params = new URLSearchParams();
  if (JSON.stringify(state) !== JSON.stringify(DEFAULT_FUNNEL)) params.set('funnel', JSON.stringify(state));
  return params;
}

/** Keeps exclusions and a chosen attribution step inside the funnel after steps are removed. */
export function normalize(state: FunnelState): FunnelState {
  const n = state.steps.length;
  const attribution = typeof state.attribution === 'object' && state.attribution.step > n ? 'first' : state.attribution;
  return { ...state, exclusions: state.exclusions.filter((x) => x.afterStep < n), attribution };
}

const filterComplete = (f: DraftFilter) => f.property.trim() !== '' && (f.op === 'set' || f.op === 'notSet' || (f.value !== undefined && String(f.value).trim() !== ''));
const numeric = (f: DraftFilter) => (f.op === 'gt' || f.op === 'lt') && f.value !== undefined && String(f.value).trim() !== '' && Number.isFinite(Number(f.value)) ? Number(f.value) : f.value;
const stepOf = (s: DraftStep) => ({
  event: s.event ?? '',
  filters: s.filters.filter(filterComplete).map((f) => ({ property: f.property.trim(), op: f.op, ...(f.op === 'set' || f.op === 'notSet' ? {} : { value: numeric(f) }) })),
});

/** The endpoint's query for a state and range, or null while a step has no event or a property breakdown no name. */
export function funnelQuery(state: FunnelState, range: DateRange): FunnelQueryInput | null {
  if (state.steps.some((s) => !s.event)) return null;
  if (state.breakdown?.kind === 'property' && !state.breakdown.property.trim()) return null;
  const query: FunnelQueryInput = {
    startDay: range.startDay, endDay: range.endDay, timeGroup: range.timeGroup,
    steps: state.steps.map(stepOf), window: state.window, order: state.order,
    exclusions: state.exclusions.filter((x) => x.step.event).map((x) => ({ event: stepOf(x.step), afterStep: x.afterStep })),
    ...(state.breakdown ? { breakdown: state.breakdown.kind === 'property' ? { kind: 'property' as const, property: state.breakdown.property.trim() } : state.breakdown } : {}),
    attribution: state.attribution, compare: state.compare,
  };
  // A filter the server would refuse (e.g. "greater than" a word) waits until it is fixed.
  return FunnelQuery.safeParse(query).success ? query : null;
}
