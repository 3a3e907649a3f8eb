/** Funnel semantics on tiny fixed data sets with known answers (funnel.ts). */
import { describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL } from '../behaviour/events.ts';
import type { StepEvent } from '../schemas/analyticsQuery.ts';
import { attributedValue, conversions, evaluateFunnel, evaluatePerson, histogramBin, histogramEdges, lowerMedian, stepCounts, type FunnelEvent, type FunnelSpec } from './funnel.ts';

const T0 = Date.parse('2026-03-10T12:00:00Z');
const S = 1000, MIN = 60 * S, HOUR = 60 * MIN, DAY = 24 * HOUR;
const step = (event: string, filters: StepEvent['filters'] = []): StepEvent => ({ event, filters });
const ev = (name: string, at: number, properties: Record<string, unknown> = {}, personId = 'p'): FunnelEvent => ({ personId, name, time: T0 + at, properties });
const spec = (over: Partial<FunnelSpec> = {}): FunnelSpec => ({
  steps: [step('a'), step('b'), step('c')], order: 'sequential', windowMs: DAY, exclusions: [],
  rangeFrom: T0 - 10 * DAY, rangeTo: T0 + 10 * DAY, ...over,
});
const reached = (events: FunnelEvent[], s: FunnelSpec = spec()) => evaluatePerson(events, s)?.reached ?? 0;

describe('sequential', () => {
  it('counts the steps in order and lets other events happen in between', () => {
    expect(reached([ev('a', 0), ev('x', 1 * S), ev('b', 2 * S), ev('y', 3 * S), ev('c', 4 * S)])).toBe(3);
  });
  it('stops at the first step done out of order', () => {
    expect(reached([ev('a', 0), ev('c', 1 * S), ev('b', 2 * S)])).toBe(2);
    expect(reached([ev('b', 0), ev('a', 1 * S), ev('c', 2 * S)])).toBe(1);
  });
  it('counts equal timestamps as in order, whatever order they are given in', () => {
    expect(reached([ev('c', 5 * S), ev('b', 5 * S), ev('a', 5 * S)])).toBe(3);
  });
  it('never lets one occurrence fill two steps of the same event', () => {
    const twice = spec({ steps: [step('a'), step('a')] });
    expect(reached([ev('a', 0)], twice)).toBe(1);
    expect(reached([ev('a', 0), ev('a', 0)], twice)).toBe(2);
    expect(reached([ev('a', 0), ev('a', 3 * S)], twice)).toBe(2);
  });
  it('takes the earliest qualifying occurrence of repeated events (time to convert from it)', () => {
    const r = evaluatePerson([ev('a', 0), ev('b', 10 * S), ev('b', 20 * S), ev('c', 30 * S), ev('c', 40 * S)], spec());
    expect(r).toMatchObject({ reached: 3, start: T0, end: T0 + 30 * S, matched: [0, 1, 3] });
  });
  it('applies property filters to each step', () => {
    const s = spec({ steps: [step('a'), step('b', [{ property: 'plan', op: 'eq', value: 'pro' }])] });
    expect(reached([ev('a', 0), ev('b', S, { plan: 'free' })], s)).toBe(1);
    expect(reached([ev('a', 0), ev('b', S, { plan: 'free' }), ev('b', 2 * S, { plan: 'pro' })], s)).toBe(2);
  });
});

describe('window edges, to the second', () => {
  const two = spec({ steps: [step('a'), step('b')], windowMs: HOUR });
  it('includes a step at exactly start + window and excludes one a second later', () => {
    expect(reached([ev('a', 0), ev('b', HOUR)], two)).toBe(2);
    expect(reached([ev('a', 0), ev('b', HOUR + S)], two)).toBe(1);
  });
  it('counts the window from step 1, not from the previous step', () => {
    expect(reached([ev('a', 0), ev('b', 40 * MIN), ev('c', 61 * MIN)], spec({ windowMs: HOUR }))).toBe(2);
  });
  it('lets a later attempt convert when an earlier one runs out of window', () => {
    const r = evaluatePerson([ev('a', 0), ev('a', 2 * HOUR), ev('b', 2 * HOUR + 30 * MIN)], two);
    expect(r).toMatchObject({ reached: 2, start: T0 + 2 * HOUR, end: T0 + 2 * HOUR + 30 * MIN });
  });
});

describe('strict', () => {
  const strict = spec({ order: 'strict' });
  it('refuses any other event between two matched steps', () => {
    expect(reached([ev('a', 0), ev('b', S), ev('c', 2 * S)], strict)).toBe(3);
    expect(reached([ev('a', 0), ev('x', S), ev('b', 2 * S), ev('c', 3 * S)], strict)).toBe(1);
    expect(reached([ev('a', 0), ev('b', S), ev('x', 2 * S), ev('c', 3 * S)], strict)).toBe(2);
  });
  it('does not count an event at the same instant as a step as in between', () => {
    expect(reached([ev('a', 0), ev('x', 0), ev('b', S), ev('x', S), ev('c', 2 * S)], strict)).toBe(3);
  });
  it('starts again at a later step 1 (a repeated step 1 is an event in between)', () => {
    expect(reached([ev('a', 0), ev('a', S), ev('b', 2 * S)], spec({ order: 'strict', steps: [step('a'), step('b')] }))).toBe(2);
  });
});

describe('any order', () => {
  const any = spec({ order: 'any' });
  it('takes steps 2..n in any order after step 1 within the window', () => {
    expect(reached([ev('a', 0), ev('c', S), ev('b', 2 * S)], any)).toBe(3);
    expect(reached([ev('a', 0), ev('c', S)], any)).toBe(1);
  });
  it('reaches step k only when the first k listed steps all happened', () => {
    const r = evaluatePerson([ev('a', 0), ev('c', S), ev('b', 5 * S)], any);
    expect(r).toMatchObject({ reached: 3, end: T0 + 5 * S });
  });
  it('ignores steps before step 1 and after the window', () => {
    expect(reached([ev('b', -S), ev('a', 0), ev('c', S)], any)).toBe(1);
    expect(reached([ev('a', 0), ev('b', DAY + S), ev('c', S)], any)).toBe(1);
  });
});

describe('exclusions', () => {
  const ex = (afterStep: number, order: FunnelSpec['order'] = 'sequential') => spec({ order, exclusions: [{ event: step('refund'), afterStep }] });
  it('ends the attempt at afterStep when the excluded event comes strictly between', () => {
    expect(reached([ev('a', 0), ev('refund', S), ev('b', 2 * S), ev('c', 3 * S)], ex(1))).toBe(1);
    expect(reached([ev('a', 0), ev('b', S), ev('refund', 2 * S), ev('c', 3 * S)], ex(2))).toBe(2);
  });
  it('ignores the excluded event outside its two steps or at their very instants', () => {
    expect(reached([ev('a', 0), ev('b', S), ev('refund', 2 * S), ev('c', 3 * S)], ex(1))).toBe(3);
    expect(reached([ev('a', 0), ev('refund', 0), ev('b', S), ev('c', 3 * S)], ex(1))).toBe(3);
    expect(reached([ev('refund', -S), ev('a', 0), ev('b', S), ev('c', 2 * S)], ex(1))).toBe(3);
  });
  it('lets a later, clean attempt count', () => {
    expect(reached([ev('a', 0), ev('refund', S), ev('a', 2 * S), ev('b', 3 * S), ev('c', 4 * S)], ex(1))).toBe(3);
  });
  it('in any order, applies between the earlier and the later of the two steps', () => {
    expect(reached([ev('a', 0), ev('c', S), ev('refund', 2 * S), ev('b', 3 * S)], ex(2, 'any'))).toBe(2);
  });
});

describe('a person counts once', () => {
  it('with the attempt that gets furthest, the earliest of those, when converting twice', () => {
    const events = [ev('a', 0), ev('b', S), ev('c', 2 * S), ev('a', DAY * 2), ev('b', DAY * 2 + S), ev('c', DAY * 2 + 9 * S)];
    const outcomes = evaluateFunnel(events, spec());
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ reached: 3, start: T0, end: T0 + 2 * S });
  });
  it('prefers a later attempt that gets further', () => {
    const r = evaluatePerson([ev('a', 0), ev('a', 2 * DAY), ev('b', 2 * DAY + S)], spec());
    expect(r).toMatchObject({ reached: 2, start: T0 + 2 * DAY });
  });
});

describe('range edges in the app time zone', () => {
  // 2026-03-10 in America/New_York (UTC-4 after the DST change of 2026-03-08) is [04:00Z, next day 04:00Z).
  const from = Date.parse('2026-03-10T04:00:00Z'), to = Date.parse('2026-03-11T04:00:00Z');
  const s = spec({ steps: [step('a'), step('b')], rangeFrom: from, rangeTo: to });
  const at = (iso: string, name: string): FunnelEvent => ({ personId: 'p', name, time: Date.parse(iso), properties: {} });
  it('starts attempts only at step-1 events of the range days', () => {
    expect(evaluatePerson([at('2026-03-10T03:59:59Z', 'a'), at('2026-03-10T05:00:00Z', 'b')], s)).toBeNull();
    expect(reached([at('2026-03-10T04:00:00Z', 'a'), at('2026-03-10T05:00:00Z', 'b')], s)).toBe(2);
    expect(evaluatePerson([at('2026-03-11T04:00:00Z', 'a')], s)).toBeNull();
  });
  it('lets later steps fall after the range end, within the window', () => {
    expect(reached([at('2026-03-11T03:59:59Z', 'a'), at('2026-03-11T10:00:00Z', 'b')], s)).toBe(2);
  });
});

describe('breakdown attribution', () => {
  const events = [ev('a', 0, { plan: 'free' }), ev('b', S, { plan: 'trial' }), ev('c', 2 * S, { plan: 'pro' })];
  const prop = { kind: 'property', property: 'plan' } as const;
  const r = evaluatePerson(events, spec())!;
  it('reads first touch, last touch and a chosen step', () => {
    expect(attributedValue(events, r, prop, 'first')).toBe('free');
    expect(attributedValue(events, r, prop, 'last')).toBe('pro');
    expect(attributedValue(events, r, prop, { step: 2 })).toBe('trial');
  });
  it('answers (empty) for a step the person did not reach and for a missing value', () => {
    const partial = evaluatePerson(events.slice(0, 2), spec())!;
    expect(attributedValue(events, partial, prop, { step: 3 })).toBe(EMPTY_SENTINEL);
    expect(attributedValue(events, partial, prop, 'last')).toBe('trial');
    const bare = [ev('a', 0), ev('b', S)];
    expect(attributedValue(bare, evaluatePerson(bare, spec())!, prop, 'first')).toBe(EMPTY_SENTINEL);
  });
  it('uses the person attribute whatever the attribution', () => {
    expect(attributedValue(events, r, { kind: 'attribute', field: 'country' }, { step: 3 }, 'ES')).toBe('ES');
    expect(attributedValue(events, r, { kind: 'attribute', field: 'country' }, 'first', null)).toBe(EMPTY_SENTINEL);
  });
});

describe('figures', () => {
  it('step counts, conversions and the lower median', () => {
    const counts = stepCounts([{ reached: 1 }, { reached: 3 }, { reached: 2 }, { reached: 3 }], 3);
    expect(counts).toEqual([4, 3, 2]);
    expect(conversions(counts)).toEqual({ overall: [1, 0.75, 0.5], fromPrevious: [1, 0.75, 2 / 3] });
    expect(conversions([0, 0])).toEqual({ overall: [0, 0], fromPrevious: [0, 0] });
    expect(lowerMedian([4, 1, 3, 2])).toBe(2);
    expect(lowerMedian([5, 1, 3])).toBe(3);
    expect(lowerMedian([])).toBeNull();
  });
  it('histogram edges end at the window and bins include their upper edge', () => {
    expect(histogramEdges(3600)).toEqual([60, 300, 900, 1800, 3600]);
    const edges = histogramEdges(7 * 86_400);
    expect(edges.at(-1)).toBe(7 * 86_400);
    expect(histogramBin(0, edges)).toBe(0);
    expect(histogramBin(60, edges)).toBe(0);
    expect(histogramBin(61, edges)).toBe(1);
    expect(histogramBin(7 * 86_400, edges)).toBe(edges.length - 1);
  });
});
