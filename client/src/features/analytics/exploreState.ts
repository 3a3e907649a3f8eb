/**
 * The explore query as the page keeps it: in the URL (?event=&metric=&breakdown=&property=&compare=
 * &chart=), so a view can be bookmarked, shared and reopened; the range and time group come from the
 * shell's date range. Unknown values in a URL fall back to the defaults instead of failing.
 * Without an event in the URL the page opens on the app's most frequent event of the range
 * (`mostFrequentEvent`, from the events list) and writes it into the URL.
 */
import type { DateRange } from '@gd/shared/dateRange';
import { ExploreBreakdown, ExploreMetric, type EventSummary } from '@gd/shared/schemas/behaviour';

export const CHART_TYPES = ['lines', 'bars'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ExploreState {
  event: string | null;
  metric: ExploreMetric;
  breakdown: ExploreBreakdown | null;
  property: string | null;
  compare: boolean;
  chart: ChartType;
}

export const DEFAULT_STATE: ExploreState = { event: null, metric: 'events', breakdown: null, property: null, compare: false, chart: 'lines' };

const text = (value: string | null) => (value?.trim() ? value.trim() : null);

export function readExploreState(params: URLSearchParams): ExploreState {
  const metric = ExploreMetric.safeParse(params.get('metric'));
  const breakdown = ExploreBreakdown.safeParse(params.get('breakdown'));
  const chart = params.get('chart');
  return {
    event: text(params.get('event')),
    metric: metric.success ? metric.data : DEFAULT_STATE.metric,
    breakdown: breakdown.success ? breakdown.data : null,
    property: breakdown.success && breakdown.data === 'property' ? text(params.get('property')) : null,
    compare: params.get('compare') === 'true',
    chart: (CHART_TYPES as readonly (string | null)[]).includes(chart) ? (chart as ChartType) : DEFAULT_STATE.chart,
  };
}

/** The URL parameters of a state, defaults left out. */
export function writeExploreState(state: ExploreState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.event) params.set('event', state.event);
  if (state.metric !== DEFAULT_STATE.metric) params.set('metric', state.metric);
  if (state.breakdown) params.set('breakdown', state.breakdown);
  if (state.breakdown === 'property' && state.property) params.set('property', state.property);
  if (state.compare) params.set('compare', 'true');
  if (state.chart !== DEFAULT_STATE.chart) params.set('chart', state.chart);
  return params;
}

/** The explore endpoint's query for a state and range, or null while the state cannot run (no event, no property name). */
export function exploreQuery(state: ExploreState, range: DateRange): Record<string, string | boolean> | null {
  if (!state.event) return null;
  if (state.breakdown === 'property' && !state.property) return null;
  return {
    event: state.event, metric: state.metric, startDay: range.startDay, endDay: range.endDay, timeGroup: range.timeGroup, compare: state.compare,
    ...(state.breakdown ? { breakdown: state.breakdown } : {}),
    ...(state.breakdown === 'property' && state.property ? { property: state.property } : {}),
  };
}

/**
 * The event explore opens on: the one with the most events in the range among those the event
 * picker lists (hidden custom events left out), ties by name; null when nothing happened.
 */
export function mostFrequentEvent(events: readonly Pick<EventSummary, 'name' | 'events' | 'hidden'>[]): string | null {
  let best: Pick<EventSummary, 'name' | 'events'> | null = null;
  for (const e of events) {
    if (e.hidden || e.events <= 0) continue;
    if (!best || e.events > best.events || (e.events === best.events && e.name < best.name)) best = e;
  }
  return best?.name ?? null;
}
