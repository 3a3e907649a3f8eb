/**
 * Funnel rules that hold whatever the data (funnel.ts): counts never increase along the steps;
 * the order events are given in does not matter; strict never reaches further than sequential;
 * exclusions never add conversions; a wider window never loses any; a funnel's first k steps reach
 * what the k-step funnel reaches (sequential and strict).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byPerson, evaluateFunnel, evaluatePerson, stepCounts } from './funnel.ts';
import { arbEvents, arbSpec } from './funnelArbitraries.ts';

const reachedBy = (events: Parameters<typeof evaluateFunnel>[0], spec: Parameters<typeof evaluateFunnel>[1]) =>
  new Map(evaluateFunnel(events, spec).map((o) => [o.personId, o.reached]));

describe('funnel properties', () => {
  it('counts never increase along the steps, and everybody counted reached step 1', () => {
    fc.assert(fc.property(arbEvents(4), arbSpec, (events, spec) => {
      const outcomes = evaluateFunnel(events, spec);
      const counts = stepCounts(outcomes, spec.steps.length);
      for (let k = 1; k < counts.length; k++) expect(counts[k]).toBeLessThanOrEqual(counts[k - 1]!);
      for (const o of outcomes) {
        expect(o.reached).toBeGreaterThanOrEqual(1);
        expect(o.end - o.start).toBeLessThanOrEqual(spec.windowMs);
        expect(o.start).toBeGreaterThanOrEqual(spec.rangeFrom);
        expect(o.start).toBeLessThan(spec.rangeTo);
      }
    }), { numRuns: 300 });
  });

  it('does not depend on the order the events are given in', () => {
    fc.assert(fc.property(arbEvents(3), arbSpec, fc.integer(), (events, spec, seed) => {
      const shuffled = [...events].sort((a, b) => ((a.time * 31 + seed) % 97) - ((b.time * 31 + seed) % 97));
      expect(reachedBy(shuffled, spec)).toEqual(reachedBy(events, spec));
    }), { numRuns: 300 });
  });

  it('strict reaches no further than sequential; exclusions never add; a wider window never loses', () => {
    fc.assert(fc.property(arbEvents(3), arbSpec, (events, spec) => {
      if (spec.order === 'any') return;
      for (const list of byPerson(events).values()) {
        const seq = evaluatePerson(list, { ...spec, order: 'sequential' })?.reached ?? 0;
        const strict = evaluatePerson(list, { ...spec, order: 'strict' })?.reached ?? 0;
        expect(strict).toBeLessThanOrEqual(seq);
        const bare = evaluatePerson(list, { ...spec, exclusions: [] })?.reached ?? 0;
        expect(evaluatePerson(list, spec)?.reached ?? 0).toBeLessThanOrEqual(bare);
        const wide = evaluatePerson(list, { ...spec, exclusions: [], windowMs: spec.windowMs * 2 })?.reached ?? 0;
        expect(wide).toBeGreaterThanOrEqual(bare);
      }
    }), { numRuns: 300 });
  });

  it('the first k steps of a funnel reach what the k-step funnel reaches (without exclusions)', () => {
    fc.assert(fc.property(arbEvents(3), arbSpec, (events, spec) => {
      if (spec.order === 'any' || spec.steps.length < 3) return;
      const full = { ...spec, exclusions: [] };
      const short = { ...full, steps: full.steps.slice(0, 2) };
      for (const list of byPerson(events).values()) {
        const a = Math.min(evaluatePerson(list, full)?.reached ?? 0, 2);
        const b = evaluatePerson(list, short)?.reached ?? 0;
        expect(a).toBe(b);
      }
    }), { numRuns: 300 });
  });
});
