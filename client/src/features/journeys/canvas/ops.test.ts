import { describe, expect, it } from 'vitest';
import { linksInto, normalizeJourney } from '@gd/shared/journey/rules';
import { fullJourney, target } from '@gd/shared/journey/testing';
import { applyOp } from './ops.ts';

describe('applyOp', () => {
  const j = fullJourney();

  it('adds a step on a link', () => {
    const next = applyOp(j, { kind: 'add', from: 'push', pathIndex: null, type: 'updateTagCount', newId: 'n1' });
    expect(target(next, 'push')).toBe('n1');
    expect(next.steps.find((s) => s.id === 'n1')?.type).toBe('updateTagCount');
  });

  it('removes a step and reconnects around it', () => {
    const next = applyOp(j, { kind: 'remove', stepId: 'tag' });
    expect(next.steps.some((s) => s.id === 'tag')).toBe(false);
    expect(target(next, 'pi')).toBe('email');
  });

  it('connects a link', () => {
    const next = applyOp(j, { kind: 'connect', from: 'pi', pathIndex: null, to: 'email' });
    expect(target(next, 'pi')).toBe('email');
  });

  it('updates a step', () => {
    const next = applyOp(j, { kind: 'update', step: { id: 'w', type: 'flowWait', next: 'int', duration: 7200 } });
    expect(next.steps.find((s) => s.id === 'w')).toMatchObject({ duration: 7200 });
  });

  it('adds and removes paths', () => {
    const added = applyOp(j, { kind: 'addPath', stepId: 'rnd', pathId: 'p3' });
    const rnd = added.steps.find((s) => s.id === 'rnd');
    expect(rnd && 'paths' in rnd ? rnd.paths.map((p) => p.id) : []).toContain('p3');
    const removed = applyOp(added, { kind: 'removePath', stepId: 'rnd', pathIndex: 2 });
    const after = removed.steps.find((s) => s.id === 'rnd');
    expect(after && 'paths' in after ? after.paths.map((p) => p.id) : []).not.toContain('p3');
  });

  it('puts a removed step back where it was', () => {
    const tag = j.steps.find((s) => s.id === 'tag');
    if (!tag) throw new Error('tag');
    const removed = applyOp(j, { kind: 'remove', stepId: 'tag' });
    const back = applyOp(removed, { kind: 'putBack', step: tag, into: linksInto(normalizeJourney(j), 'tag') });
    expect([target(back, 'pi'), target(back, 'tag')]).toEqual(['tag', 'email']);
  });

  it('returns the normalized journey unchanged for an op that does not apply', () => {
    expect(applyOp(j, { kind: 'remove', stepId: 's' })).toEqual(normalizeJourney(j));
    expect(applyOp(j, { kind: 'connect', from: 'nope', pathIndex: null, to: null })).toEqual(normalizeJourney(j));
  });
});
