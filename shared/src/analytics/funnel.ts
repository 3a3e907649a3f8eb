/**
 * Funnel semantics: the reference implementation. The API evaluates funnels in SQL (the
 * `gd_funnel_eval` function of migration 035 mirrors `evaluatePerson` line for line) and its
 * integration tests check that it answers what this module answers on the same data.
 *
 * Rules (person-based):
 * - An attempt starts at each occurrence of step 1 inside the range [rangeFrom, rangeTo) (the
 *   range's days in the app's time zone, as instants). Later steps may fall after the range end,
 *   up to the window. The window counts from the attempt's step 1: a step at exactly
 *   start + window is inside, a millisecond later is not.
 * - Events of a person are taken in time order; occurrences at the same instant by the steps they
 *   match (bit mask, lowest first), then the exclusions, then (with a property breakdown) by the
 *   breakdown value in binary order, then as given. The SQL sorts its arrays the same way.
 * - sequential: step k+1 is the earliest occurrence (greedy) matching it at a time >= the matched
 *   step k (equal instants count as in order) that no earlier step of the attempt used.
 * - strict: as sequential, and no event of the person (any name) lies strictly between the times
 *   of two consecutive matched steps; events at the very same instant as either step do not count.
 * - any: step 1 anchors the attempt; each of steps 2..n takes the earliest unused occurrence in
 *   [start, start + window], in listed order; step k is reached when steps 1..k all matched.
 * - exclusions: an exclusion event strictly between the times of matched steps a and a+1 (a =
 *   afterStep; in `any` order between the earlier and the later of the two) ends the attempt at
 *   step a. The attempt reaches min(steps matched, every such a).
 * - A person counts once, with the attempt that reaches furthest, the earliest on a tie. Its time
 *   to convert is from its step 1 to the latest of its matched steps.
 * - Breakdown attribution (event property): first = the value at step 1's occurrence, last = at
 *   the last reached step's occurrence, { step } = at that step's occurrence, EMPTY_SENTINEL when
 *   the person did not reach it. A person attribute is the person's, whatever the attribution.
 *
 * Everything here is pure: events in, results out.
 */
import { matchesStep, type PersonBreakdown, type StepEvent } from '../schemas/analyticsQuery.ts';
import type { FunnelAttribution, FunnelOrder } from '../schemas/funnels.ts';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '../behaviour/events.ts';

type Attribution = FunnelAttribution;

export interface FunnelEvent {
  personId: string;
  name: string;
  /** Epoch milliseconds. */
  time: number;
  properties: Record<string, unknown>;
}

export interface FunnelSpec {
  steps: readonly StepEvent[];
  order: FunnelOrder;
  windowMs: number;
  exclusions: readonly { event: StepEvent; afterStep: number }[];
  /** Attempts start at step-1 occurrences in [rangeFrom, rangeTo) (epoch ms). */
  rangeFrom: number;
  rangeTo: number;
}

export interface PersonFunnel {
  /** Steps reached (1..n): the person entered the funnel. */
  reached: number;
  start: number;
  end: number;
  /** The events (indexes into the events as given) of the reached steps, step 1 first. */
  matched: number[];
}

/** Step masks of one person's time-ordered events (bit k: matches step k+1). */
function masks(events: readonly FunnelEvent[], steps: readonly StepEvent[]): number[] {
  return events.map((e) => steps.reduce((m, s, k) => (matchesStep(e.name, e.properties, s) ? m | (1 << k) : m), 0));
}

/**
 * One person's funnel: `events` are all the person's events (strict order needs the others too),
 * in any order. Null when no attempt starts in the range.
 */
export function evaluatePerson(events: readonly FunnelEvent[], spec: FunnelSpec): PersonFunnel | null {
  const n = spec.steps.length;
  const ms0 = masks(events, spec.steps);
  const xs0 = events.map((e) => spec.exclusions.reduce((m, x, i) => (matchesStep(e.name, e.properties, x.event) ? m | (1 << i) : m), 0));
  // Time order; equal instants by step mask, then exclusion mask (as the SQL orders its arrays).
  const event = (i: number): FunnelEvent => events[i] ?? { personId: '', name: '', time: Number.NaN, properties: {} };
  const order = events.map((_, i) => i).sort((a, b) => event(a).time - event(b).time || (ms0[a] ?? 0) - (ms0[b] ?? 0) || (xs0[a] ?? 0) - (xs0[b] ?? 0) || a - b);
  const ts = order.map((i) => event(i).time);
  const ms = order.map((i) => ms0[i] ?? 0);
  const xs = order.map((i) => xs0[i] ?? 0);
  // Out-of-range reads cannot happen; NaN and 0 keep the types honest without assertions.
  const T = (i: number) => ts[i] ?? Number.NaN;
  const M = (i: number) => ms[i] ?? 0;
  const X = (i: number) => xs[i] ?? 0;
  const len = events.length;
  let best: PersonFunnel | null = null;
  for (let i = 0; i < len; i++) {
    const t1 = T(i);
    if ((M(i) & 1) === 0 || t1 < spec.rangeFrom || t1 >= spec.rangeTo) continue;
    const deadline = t1 + spec.windowMs;
    const cur = [i];
    let tPrev = t1;
    for (let k = 1; k < n; k++) {
      const lowest = spec.order === 'any' ? t1 : tPrev;
      let found = -1;
      for (let j = 0; j < len && T(j) <= deadline; j++) {
        if (T(j) >= lowest && (M(j) & (1 << k)) !== 0 && !cur.includes(j)) { found = j; break; }
      }
      if (found >= 0 && spec.order === 'strict') {
        for (let o = 0; o < len && T(o) < T(found); o++) {
          if (T(o) > tPrev) { found = -1; break; }
        }
      }
      if (found < 0) break;
      cur.push(found);
      tPrev = T(found);
    }
    let reached = cur.length;
    const matchedAt = (step: number) => T(cur[step - 1] ?? -1);
    spec.exclusions.forEach((x, e) => {
      const a = x.afterStep;
      if (a >= reached) return;
      const lo = Math.min(matchedAt(a), matchedAt(a + 1));
      const hi = Math.max(matchedAt(a), matchedAt(a + 1));
      for (let o = 0; o < len && T(o) < hi; o++) {
        if (T(o) > lo && (X(o) & (1 << e)) !== 0) { reached = a; break; }
      }
    });
    if (best === null || reached > best.reached) {
      const matched = cur.slice(0, reached);
      best = { reached, start: t1, end: Math.max(...matched.map(T)), matched: matched.map((m) => order[m] ?? -1) };
      if (reached === n) break;
    }
  }
  return best;
}

/** Events grouped by person, each group in time order (stable for equal instants). */
export function byPerson(events: readonly FunnelEvent[]): Map<string, FunnelEvent[]> {
  const groups = new Map<string, FunnelEvent[]>();
  for (const e of events) {
    let list = groups.get(e.personId);
    if (!list) groups.set(e.personId, (list = []));
    list.push(e);
  }
  for (const list of groups.values()) list.sort((a, b) => a.time - b.time);
  return groups;
}

export interface PersonOutcome extends PersonFunnel { personId: string; key: string | null }

/** The text of a breakdown value as the SQL reads it (`properties ->> p`, '' and missing = empty). */
export function propertyText(properties: Record<string, unknown>, property: string): string {
  const v = properties[property];
  if (v === undefined || v === null) return EMPTY_SENTINEL;
  const text = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  return text === '' ? EMPTY_SENTINEL : text;
}

/** The breakdown value of a person's funnel, under the attribution rules above. */
export function attributedValue(events: readonly FunnelEvent[], result: PersonFunnel, breakdown: PersonBreakdown, attribution: Attribution, attribute?: string | null): string {
  if (breakdown.kind === 'attribute') return attribute === undefined || attribute === null || attribute === '' ? EMPTY_SENTINEL : attribute;
  const at = attribution === 'first' ? 1 : attribution === 'last' ? result.reached : attribution.step;
  if (at > result.reached) return EMPTY_SENTINEL;
  const index = result.matched[at - 1];
  const event = index === undefined ? undefined : events[index];
  return event === undefined ? EMPTY_SENTINEL : propertyText(event.properties, breakdown.property);
}

const compareBinary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The breakdown series' keys: the top `top` by people who entered (then value, binary order) and
 * OTHER_SENTINEL for the rest, as the SQL folds them.
 */
export function foldBreakdown(outcomes: readonly PersonOutcome[], top: number): PersonOutcome[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.key ?? '', (counts.get(o.key ?? '') ?? 0) + 1);
  const kept = new Set([...counts.entries()].sort((a, b) => b[1] - a[1] || compareBinary(a[0], b[0])).slice(0, top).map(([k]) => k));
  return outcomes.map((o) => (o.key === null || kept.has(o.key) ? o : { ...o, key: OTHER_SENTINEL }));
}

/** Every person's outcome (people with no attempt in the range are left out). */
export function evaluateFunnel(events: readonly FunnelEvent[], spec: FunnelSpec, breakdown?: { by: PersonBreakdown; attribution: Attribution; attributes?: ReadonlyMap<string, string | null> }): PersonOutcome[] {
  const out: PersonOutcome[] = [];
  for (const [personId, grouped] of byPerson(events)) {
    // Equal instants by the breakdown value too (binary order), as the SQL sorts them.
    const by = breakdown?.by;
    const list = by?.kind === 'property'
      ? [...grouped].sort((a, b) => a.time - b.time || compareBinary(propertyText(a.properties, by.property), propertyText(b.properties, by.property)))
      : grouped;
    const r = evaluatePerson(list, spec);
    if (!r) continue;
    const key = breakdown ? attributedValue(list, r, breakdown.by, breakdown.attribution, breakdown.attributes?.get(personId)) : null;
    out.push({ ...r, personId, key });
  }
  return out;
}

/** People who reached at least step k, for k = 1..n. Never increases along the steps. */
export function stepCounts(outcomes: readonly { reached: number }[], n: number): number[] {
  return Array.from({ length: n }, (_, k) => outcomes.filter((o) => o.reached >= k + 1).length);
}

/** Lower median (what Postgres' percentile_disc(0.5) answers), null for no values. */
export function lowerMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1] ?? null;
}

/** Step conversions: overall (step k over step 1) and from the previous step, as fractions (0 when nobody entered). */
export function conversions(counts: readonly number[]): { overall: number[]; fromPrevious: number[] } {
  const first = counts[0] ?? 0;
  return {
    overall: counts.map((c) => (first === 0 ? 0 : c / first)),
    fromPrevious: counts.map((c, k) => {
      const before = k === 0 ? first : (counts[k - 1] ?? 0);
      return before === 0 ? 0 : k === 0 ? 1 : c / before;
    }),
  };
}

// ---- time to convert histogram ----

const MINUTE = 60, HOUR = 3600, DAY = 86_400;
/** Upper edges (seconds) of the time-to-convert bins, clipped to the window: readable steps from a minute to 90 days. */
const BIN_EDGES = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 60 * DAY, 90 * DAY];

/** The bins' upper edges for a window (seconds): the standard edges below it, then the window itself. */
export function histogramEdges(windowSeconds: number): number[] {
  return [...BIN_EDGES.filter((e) => e < windowSeconds), windowSeconds];
}

/** The bin of a duration: the first edge it does not exceed (a bin holds (previous edge, edge]; the first [0, edge]). */
export function histogramBin(seconds: number, edges: readonly number[]): number {
  const i = edges.findIndex((e) => seconds <= e);
  return i < 0 ? edges.length - 1 : i;
}

