import { describe, expect, it } from 'vitest';
import { addPath, addStepAfter, canAddAfter, connect, linksInto, putBackStep, removePath, removeStep, updateStep } from './edit.ts';
import { journeyInvariantIssues } from './invariants.ts';
import { createStep, type Journey } from './model.ts';
import { normalizeJourney } from './normalize.ts';
import { byId, journey, linked, mk, target } from './testing.ts';

const src = (next: string | null = null) => linked('sourceEvents', 's', next, { eventIds: ['e1'] });
const push = (id: string, next: string | null) => linked('actionMessagePush', id, next, { campaignId: 'c', messageId: id });
const ids = (j: Journey) => j.steps.map((s) => s.id).sort();

describe('addStepAfter', () => {
  it('inserts a single-next step on a link; what followed continues after it', () => {
    const j = addStepAfter(journey('s', src('a'), push('a', null)), 's', null, 'actionMessageEmail', 'n');
    expect([target(j, 's'), target(j, 'n')]).toEqual(['n', 'a']);
  });

  it('puts what followed on the last path of a new branching step, and ends on the others', () => {
    const j = addStepAfter(journey('s', src('a'), push('a', null)), 's', null, 'flowSplit', 'n');
    expect([target(j, 'n', 0), target(j, 'n', 1)]).toEqual(['auto-end-n-p1', 'a']);
  });

  it('inserts on a path of a branching step', () => {
    const j = addStepAfter(journey('s', src('r'), linked('flowRandom', 'r', [null, null])), 'r', 1, 'actionMessagePush', 'n');
    expect(target(j, 'r', 1)).toBe('n');
    expect(target(j, 'n')).toBe('auto-end-r-p2');
  });

  it('replaces an automatic end it displaces and applies the rules to the new step', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null)));
    const j = addStepAfter(j0, 'a', null, 'flowEvent', 'ev');
    expect(target(j, 'a')).toBe('auto-wait-ev');
    expect(target(j, 'auto-wait-ev')).toBe('ev');
    expect(journeyInvariantIssues(j)).toEqual([]);
  });

  it('a user wait added before an automatic wait takes its place', () => {
    const j0 = addStepAfter(normalizeJourney(journey('s', src('a'), push('a', null))), 'a', null, 'flowEvent', 'ev');
    const j = addStepAfter(j0, 'a', null, 'flowWait', 'w');
    expect([target(j, 'a'), target(j, 'w')]).toEqual(['w', 'ev']);
    expect(byId(j, 'auto-wait-ev')).toBeUndefined();
  });

  it('an end cuts the link', () => {
    const j = addStepAfter(journey('s', src('a'), push('a', null)), 's', null, 'end', 'x');
    expect(target(j, 's')).toBe('x');
    expect(byId(j, 'a')).toBeDefined();
  });

  it('refuses sources, unknown steps, missing links and taken ids', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null)));
    expect(canAddAfter(j0, 's', null, 'sourceAudience')).toBe(false);
    expect(addStepAfter(j0, 's', null, 'sourceAudience', 'n')).toBe(j0);
    expect(addStepAfter(j0, 'nope', null, 'flowWait', 'n')).toBe(j0);
    expect(addStepAfter(j0, 'auto-end-a', null, 'flowWait', 'n')).toBe(j0);
    expect(addStepAfter(j0, 's', null, 'flowWait', 'a')).toBe(j0);
    expect(canAddAfter(j0, 's', null, 'flowWait')).toBe(true);
  });
});

describe('removeStep', () => {
  it('reconnects every predecessor of a single-next step to its successor', () => {
    const j0 = journey('s', src('r'), linked('flowRandom', 'r', ['a', 'a']), push('a', 'b'), push('b', null));
    const j = removeStep(j0, 'a');
    expect([target(j, 'r', 0), target(j, 'r', 1)]).toEqual(['b', 'b']);
    expect(byId(j, 'a')).toBeUndefined();
  });

  it('removes a branching step and everything downstream that nothing else reaches', () => {
    const j0 = journey(
      's',
      src('x'),
      linked('flowRandom', 'x', ['r', 'y']),
      linked('flowRandom', 'r', ['a', 'b']),
      push('a', 'c'),
      push('b', 'j'),
      push('c', null),
      push('y', 'j'),
      linked('flowJoin', 'j', 'k'),
      push('k', null),
    );
    const j = removeStep(j0, 'r');
    expect(ids(j)).toEqual(['auto-end-k', 'auto-end-x-p1', 'j', 'k', 's', 'x', 'y']);
    expect(target(j, 'x', 0)).toBe('auto-end-x-p1');
  });

  it('treats a branching step with one path like a single-next step', () => {
    const r = linked('flowRandom', 'r', ['a']);
    const j = removeStep(journey('s', src('r'), r, push('a', null)), 'r');
    expect(target(j, 's')).toBe('a');
  });

  it('opens the predecessors when the removed step links to itself', () => {
    const j = removeStep(journey('s', src('a'), push('a', 'a')), 'a');
    expect(target(j, 's')).toBe('auto-end-s');
  });

  it('keeps the entry and ignores unknown ids', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null)));
    expect(removeStep(j0, 's')).toBe(j0);
    expect(removeStep(j0, 'nope')).toBe(j0);
  });

  it('removing an automatic step changes nothing: the rules put it back', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null)));
    expect(removeStep(j0, 'auto-end-a')).toEqual(j0);
  });
});

describe('connect', () => {
  it('links a step to another, dropping the automatic end it replaced', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null), push('b', null)));
    const j = connect(j0, 'a', null, 'b');
    expect(target(j, 'a')).toBe('b');
    expect(byId(j, 'auto-end-a')).toBeUndefined();
  });

  it('opening a link closes it with an end', () => {
    const j = connect(journey('s', src('a'), push('a', null)), 's', null, null);
    expect(target(j, 's')).toBe('auto-end-s');
  });

  it('refuses a source or a missing step as target', () => {
    const j0 = normalizeJourney(journey('s', src('a'), push('a', null)));
    expect(connect(j0, 'a', null, 's')).toBe(j0);
    expect(connect(j0, 'a', null, 'ghost')).toBe(j0);
    expect(connect(j0, 'ghost', null, 'a')).toBe(j0);
    expect(connect(j0, 'a', 3, 'a')).toEqual(connect(j0, 'a', null, 'a'));
  });
});

describe('updateStep', () => {
  it('replaces a step and normalizes', () => {
    const j0 = normalizeJourney(journey('s', src('p'), push('p', null)));
    const j = updateStep(j0, linked('actionMessageInApp', 'p', 'auto-end-p', { campaignId: 'c', messageId: 'm' }));
    expect(byId(j, 'p')?.type).toBe('actionMessageInApp');
    expect(target(j, 'p')).toBe('auto-wait-auto-end-p');
  });

  it('turns a changed automatic step into a user step, and leaves an unchanged one automatic', () => {
    const j0 = normalizeJourney(journey('s', src('p'), push('p', 'e'), linked('flowEvent', 'e', [null, null])));
    const auto = byId(j0, 'auto-wait-e');
    if (auto?.type !== 'flowWait') throw new Error('expected an automatic wait');
    expect(updateStep(j0, auto)).toBe(j0);
    const j = updateStep(j0, { ...auto, duration: 60 });
    expect(byId(j, 'auto-wait-e')).toEqual({ id: 'auto-wait-e', type: 'flowWait', next: 'e', duration: 60 });
  });

  it('switches the source type in place', () => {
    const j0 = normalizeJourney(journey('s', src('p'), push('p', null)));
    const j = updateStep(j0, { ...createStep('sourceAudience', 's'), next: 'p', audienceId: 'aud' });
    expect(byId(j, 's')).toMatchObject({ type: 'sourceAudience', next: 'p' });
    expect(j.entryId).toBe('s');
    expect(updateStep(j0, mk('end', 'ghost'))).toBe(j0);
  });
});

describe('paths', () => {
  it('addPath inserts before the last path, or appends for random', () => {
    const j = addPath(journey('s', src('v'), linked('flowEvent', 'v', [null, null])), 'v', 'n');
    const v = byId(j, 'v');
    expect(v && 'paths' in v ? v.paths.map((p) => [p.id, p.eventId]) : []).toEqual([['p1', null], ['n', null], ['p2', undefined]]);
    const r = byId(addPath(journey('s', src('r'), linked('flowRandom', 'r', [null, null])), 'r', 'n'), 'r');
    expect(r && 'paths' in r ? r.paths.map((p) => [p.id, p.amount]) : []).toEqual([['p1', 0.5], ['p2', 0.5], ['n', 0.5]]);
  });

  it('addPath refuses a taken path id or a step without paths', () => {
    const j0 = normalizeJourney(journey('s', src('v'), linked('flowEvent', 'v', [null, null])));
    expect(addPath(j0, 'v', 'p1')).toBe(j0);
    expect(addPath(j0, 's', 'x')).toBe(j0);
  });

  it('removePath drops the path and what only it reached', () => {
    const j0 = journey('s', src('r'), linked('flowRandom', 'r', ['a', 'b', 'b']), push('a', null), push('b', null));
    const j = removePath(j0, 'r', 0);
    expect(byId(j, 'a')).toBeUndefined();
    const k = removePath(j0, 'r', 1);
    expect(byId(k, 'b')).toBeDefined();
    expect(removePath(journey('s', src('r'), linked('flowRandom', 'r', ['a']), push('a', null)), 'r', 0).steps.some((s) => s.id === 'a')).toBe(true);
  });
});

describe('putBackStep', () => {
  const base = normalizeJourney(journey('s', src('a'), push('a', 'b'), push('b', null)));
  const removedA = () => {
    const step = byId(base, 'a');
    if (!step) throw new Error('a');
    return { step: { ...step, name: 'typed' }, into: linksInto(base, 'a'), after: removeStep(base, 'a') };
  };

  it('puts a removed step back where it was, with its fields, and it continues where it did', () => {
    const { step, into, after } = removedA();
    expect(into).toEqual([{ fromStepId: 's', pathId: null }]);
    const j = putBackStep(after, step, into);
    expect([target(j, 's'), target(j, 'a'), byId(j, 'a')?.name]).toEqual(['a', 'b', 'typed']);
    expect(journeyInvariantIssues(j)).toEqual([]);
  });

  it('keeps a step someone inserted on its place meanwhile connected: it comes after the returned step', () => {
    const { step, into, after } = removedA();
    const inserted = addStepAfter(after, 's', null, 'actionMessageEmail', 'x');
    const j = putBackStep(inserted, step, into);
    expect([target(j, 's'), target(j, 'a'), target(j, 'x')]).toEqual(['a', 'x', 'b']);
  });

  it('finds a path of a branching step by its id after the paths moved', () => {
    const j0 = normalizeJourney(journey('s', src('r'), linked('flowRandom', 'r', ['a', null]), push('a', null)));
    const into = linksInto(j0, 'a');
    const step = byId(j0, 'a');
    if (!step) throw new Error('a');
    const withPath = addPath(removeStep(j0, 'a'), 'r', 'p0');
    const reordered = { ...withPath, steps: withPath.steps.map((s) => (s.id === 'r' && 'paths' in s ? { ...s, paths: [...s.paths].reverse() } : s)) };
    const j = putBackStep(reordered, step, into);
    const r = byId(j, 'r');
    const path = r && 'paths' in r ? r.paths.find((p) => p.id === into[0]?.pathId) : undefined;
    expect(path?.next).toBe('a');
  });

  it('changes nothing when the step exists, its place is gone, or it is a source', () => {
    const { step, into, after } = removedA();
    expect(putBackStep(base, step, into)).toEqual(base);
    const noPlace = removeStep(after, 'b');
    expect(putBackStep({ ...after, steps: after.steps.filter((s) => s.id !== 's'), entryId: null }, step, into).steps.some((s) => s.id === 'a')).toBe(false);
    expect(putBackStep(noPlace, step, [{ fromStepId: 'gone', pathId: null }])).toEqual(noPlace);
    expect(putBackStep(after, { ...src(null), id: 'src2' }, into)).toEqual(after);
  });

  it('a branching step comes back with its removed branches open (closed by automatic ends)', () => {
    const j0 = normalizeJourney(journey('s', src('r'), linked('flowRandom', 'r', ['a', 'b']), push('a', null), push('b', null)));
    const step = byId(j0, 'r');
    if (!step) throw new Error('r');
    const j = putBackStep(removeStep(j0, 'r'), step, linksInto(j0, 'r'));
    expect(target(j, 's')).toBe('r');
    expect(journeyInvariantIssues(j)).toEqual([]);
    expect(ids(j).filter((id) => id === 'a' || id === 'b')).toEqual([]);
  });
});
