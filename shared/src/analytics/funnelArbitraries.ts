/**
 * Random funnels and event histories for property tests (funnel.property.test.ts) and for the
 * API's integration test that checks the SQL against funnel.ts on generated data. Small alphabets
 * (events a, b, c, x; plan free or pro) and a short time scale (seconds over a few hours) so that
 * repeated events, equal instants, window edges and exclusions happen often.
 */
import fc from 'fast-check';
import type { PropertyFilter, StepEvent } from '../schemas/analyticsQuery.ts';
import type { FunnelEvent, FunnelSpec } from './funnel.ts';

export const ARB_BASE_TIME = Date.parse('2026-03-10T00:00:00Z');
const NAMES = ['a', 'b', 'c', 'x'] as const;

export const arbStep: fc.Arbitrary<StepEvent> = fc.record({
  event: fc.constantFrom('a', 'b', 'c'),
  filters: fc.oneof(
    { weight: 3, arbitrary: fc.constant<PropertyFilter[]>([]) },
    { weight: 1, arbitrary: fc.constantFrom('free', 'pro').map((value): PropertyFilter[] => [{ property: 'plan', op: 'eq', value }]) },
    { weight: 1, arbitrary: fc.constant<PropertyFilter[]>([{ property: 'n', op: 'gt', value: 5 }]) },
  ),
});

/** Events of `people` people over about 3 hours, times in whole seconds (so the SQL's float seconds are exact). */
export const arbEvents = (people: number, maxPerPerson = 12, minPerPerson = 0): fc.Arbitrary<FunnelEvent[]> =>
  fc.array(
    fc.record({
      person: fc.integer({ min: 0, max: people - 1 }),
      name: fc.constantFrom(...NAMES),
      second: fc.integer({ min: 0, max: 3 * 3600 }),
      plan: fc.constantFrom('free', 'pro', undefined),
      n: fc.integer({ min: 0, max: 10 }),
    }),
    { minLength: people * minPerPerson, maxLength: people * maxPerPerson },
  ).map((rows) => rows.map((r) => ({
    personId: String(r.person + 1), name: r.name, time: ARB_BASE_TIME + r.second * 1000,
    properties: { ...(r.plan === undefined ? {} : { plan: r.plan }), n: r.n },
  })));

export const arbSpec: fc.Arbitrary<FunnelSpec> = fc.record({
  steps: fc.array(arbStep, { minLength: 2, maxLength: 4 }),
  order: fc.constantFrom('sequential', 'strict', 'any'),
  windowMs: fc.constantFrom(60, 600, 1800, 3600).map((s) => s * 1000),
  exclusions: fc.array(fc.record({ event: fc.constant<StepEvent>({ event: 'x', filters: [] }), afterStep: fc.integer({ min: 1, max: 3 }) }), { maxLength: 2 }),
  rangeFrom: fc.constant(ARB_BASE_TIME),
  rangeTo: fc.constantFrom(3600, 7200).map((s) => ARB_BASE_TIME + s * 1000),
}).map((s) => ({ ...s, exclusions: s.exclusions.filter((x) => x.afterStep < s.steps.length) }));
