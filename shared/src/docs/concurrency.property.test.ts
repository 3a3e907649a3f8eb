/**
 * Two replicas of one journey document apply different valid edits (each normalized), exchange
 * updates at random moments, and converge. The merged state may break the graph invariants
 * (ARCHITECTURE.md, sync rules); normalizeJourney must repair it, and both replicas writing their
 * repair must converge to a state that is already normal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { applyEditOp, arbEditOp, arbJourney, type EditOp } from '../journey/arbitraries.ts';
import { journeyInvariantIssues } from '../journey/invariants.ts';
import { Journey } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, initialJourney, journeyFromDoc } from './journeyDoc.ts';

type Step = { who: 'a' | 'b'; op: EditOp } | { who: 'sync' };
const arbSteps = fc.array(
  fc.oneof(
    { arbitrary: fc.record({ who: fc.constant('a' as const), op: arbEditOp }), weight: 4 },
    { arbitrary: fc.record({ who: fc.constant('b' as const), op: arbEditOp }), weight: 4 },
    { arbitrary: fc.constant({ who: 'sync' as const }), weight: 1 },
  ),
  { maxLength: 16 },
);

function sync(a: Y.Doc, b: Y.Doc) {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

function run(start: Journey, steps: Step[]) {
  const server = new Y.Doc();
  applyJourneyToDoc(server, start);
  const replicas = { a: new Y.Doc(), b: new Y.Doc() };
  for (const r of Object.values(replicas)) Y.applyUpdate(r, Y.encodeStateAsUpdate(server));
  const counters = { a: 0, b: 0 };
  for (const step of steps) {
    if (step.who === 'sync') {
      sync(replicas.a, replicas.b);
      continue;
    }
    const { who, op } = step;
    const doc = replicas[who];
    const next = applyEditOp(journeyFromDoc(doc), op, () => `${who}${++counters[who]}`);
    expect(journeyInvariantIssues(next)).toEqual([]);
    applyJourneyToDoc(doc, next);
  }
  sync(replicas.a, replicas.b);
  const merged = journeyFromDoc(replicas.a);
  expect(journeyFromDoc(replicas.b)).toEqual(merged);

  const repaired = normalizeJourney(merged);
  expect(journeyInvariantIssues(repaired)).toEqual([]);
  expect(Journey.safeParse(repaired).success).toBe(true);

  // Both replicas see the merge and write their repair concurrently.
  for (const doc of Object.values(replicas)) applyJourneyToDoc(doc, normalizeJourney(journeyFromDoc(doc)));
  sync(replicas.a, replicas.b);
  const final = journeyFromDoc(replicas.a);
  expect(journeyFromDoc(replicas.b)).toEqual(final);
  expect(normalizeJourney(final)).toEqual(final);
  expect(journeyInvariantIssues(final)).toEqual([]);
}

describe('concurrent replicas', () => {
  it('converge, and normalization repairs whatever their merge breaks (from a new journey)', () => {
    fc.assert(fc.property(arbSteps, (steps) => run(initialJourney(), steps)), { numRuns: Number(process.env.FC_RUNS ?? 200) });
  });

  it('converge, and normalization repairs whatever their merge breaks (from random journeys)', () => {
    fc.assert(fc.property(arbJourney, arbSteps, (j, steps) => run(normalizeJourney(j), steps)), { numRuns: Number(process.env.FC_RUNS ?? 200) });
  });
});

describe('found by the property test', () => {
  it('two people turning the same wait-interaction into an interaction converge (no duplicate-path ping-pong)', () => {
    const start = normalizeJourney({ entryId: 's0', steps: [{ id: 's0', type: 'flowWaitInteraction', paths: [] }] } as unknown as Journey);
    run(start, [
      { who: 'b', op: { kind: 'update', step: 45, variant: 0 } },
      { who: 'a', op: { kind: 'update', step: 9, variant: 0 } },
    ]);
  });
});
