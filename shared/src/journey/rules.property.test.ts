import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEditOp, arbEditOp, arbJourney } from './arbitraries.ts';
import { journeyInvariantIssues } from './invariants.ts';
import { Journey, createStep } from './model.ts';
import { normalizeJourney } from './normalize.ts';

const initial = (): Journey => normalizeJourney({ entryId: 'source', steps: [createStep('sourceEvents', 'source')] });

describe('normalizeJourney over random journeys', () => {
  it('establishes every invariant and yields a valid journey', () => {
    fc.assert(
      fc.property(arbJourney, (j) => {
        const n = normalizeJourney(j);
        expect(journeyInvariantIssues(n)).toEqual([]);
        expect(Journey.safeParse(n).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent (a normal journey comes back as the same object)', () => {
    fc.assert(
      fc.property(arbJourney, (j) => {
        const n = normalizeJourney(j);
        expect(normalizeJourney(n)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every user step that was there (only automatic steps and merged waits disappear)', () => {
    fc.assert(
      fc.property(arbJourney, (j) => {
        const n = normalizeJourney(j);
        const kept = new Set(n.steps.map((s) => s.id));
        const firstOfId = new Map<string, (typeof j.steps)[number]>();
        for (const s of j.steps) if (!firstOfId.has(s.id)) firstOfId.set(s.id, s);
        for (const s of firstOfId.values()) {
          if (!s.auto && s.type !== 'flowWait') expect(kept.has(s.id)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('random edit sequences', () => {
  it('keep every invariant after each operation', () => {
    fc.assert(
      fc.property(fc.array(arbEditOp, { maxLength: 25 }), (ops) => {
        let j = initial();
        let counter = 0;
        for (const op of ops) {
          j = applyEditOp(j, op, () => `n${++counter}`);
          expect(journeyInvariantIssues(j)).toEqual([]);
          expect(Journey.safeParse(j).success).toBe(true);
          expect(normalizeJourney(j)).toBe(j);
        }
      }),
      { numRuns: 300 },
    );
  });
});
