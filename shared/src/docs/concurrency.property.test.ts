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
import { jsonEqual } from '../journey/json.ts';
import { Journey } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, initialJourney, journeyFromDoc } from './journeyDoc.ts';
import { sync } from './testing.ts';

type Step = { who: 'a' | 'b'; op: EditOp } | { who: 'sync' };
const arbSteps = fc.array(
  fc.oneof(
    { arbitrary: fc.record({ who: fc.constant('a' as const), op: arbEditOp }), weight: 4 },
    { arbitrary: fc.record({ who: fc.constant('b' as const), op: arbEditOp }), weight: 4 },
    { arbitrary: fc.constant({ who: 'sync' as const }), weight: 1 },
  ),
  { maxLength: 16 },
);


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

  // Both replicas see the merge and write their repair concurrently (the editor lets one replica
  // repair, sync/repair.ts; this is the worst case). Two repairs can each re-create a path the
  // merge lost (two "p1" entries in one list): the next repair removes the duplicate, the same one
  // on every replica, so repairs reach a normal state that every replica holds within a few rounds.
  let final = merged;
  for (let round = 0; round < 3; round++) {
    for (const doc of Object.values(replicas)) applyJourneyToDoc(doc, normalizeJourney(journeyFromDoc(doc)));
    sync(replicas.a, replicas.b);
    final = journeyFromDoc(replicas.a);
    expect(journeyFromDoc(replicas.b)).toEqual(final);
    if (jsonEqual(normalizeJourney(final), final)) break;
  }
  expect(normalizeJourney(final)).toEqual(final);
  expect(journeyInvariantIssues(final)).toEqual([]);
}

describe('concurrent replicas', () => {
  it('converge, and normalization repairs whatever their merge breaks (from a new journey)', () => {
    fc.assert(fc.property(arbSteps, (steps) => run(initialJourney(), steps)), { numRuns: Number(process.env.FC_RUNS ?? 200) });
  });

  it('converge when both remove the paths of one step at once and both re-create its path (a fixed case found by the property)', () => {
    run(initialJourney(), [
      { who: 'b', op: { kind: 'add', from: 3, path: 0, type: 'flowWaitInteraction' } },
      { who: 'sync' },
      { who: 'b', op: { kind: 'removePath', step: 26, path: 15 } },
      { who: 'a', op: { kind: 'removePath', step: 6, path: 0 } },
    ] as Step[]);
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
