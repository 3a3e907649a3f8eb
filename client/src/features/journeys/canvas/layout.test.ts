import { describe, expect, it } from 'vitest';
import { createStep, type Journey } from '@gd/shared/journey/model';
import { addStepAfter } from '@gd/shared/journey/rules';
import { fullJourney, journey, linked } from '@gd/shared/journey/testing';
import { COLUMN_WIDTH, NODE_HEIGHT, NODE_WIDTH, ROW_HEIGHT, autoLayout } from './layout.ts';

const overlapping = (pos: Record<string, { x: number; y: number }>) => {
  const list = Object.entries(pos);
  return list.flatMap(([a, p], i) =>
    list.slice(i + 1).filter(([, q]) => Math.abs(p.x - q.x) < NODE_WIDTH && Math.abs(p.y - q.y) < NODE_HEIGHT).map(([b]) => [a, b]),
  );
};

describe('autoLayout', () => {
  it('places every step, the entry on top and each link going down', () => {
    const j = fullJourney();
    const pos = autoLayout(j, {});
    expect(Object.keys(pos).sort()).toEqual(j.steps.map((s) => s.id).sort());
    expect(pos.s?.y).toBe(0);
    for (const s of j.steps) {
      const targets = 'paths' in s ? s.paths.map((p) => p.next) : 'next' in s ? [s.next] : [];
      for (const to of targets) if (to) expect(pos[to]?.y ?? 0).toBeGreaterThan(pos[s.id]?.y ?? 0);
    }
  });

  it('lays a chain out in one column, one row per depth', () => {
    const j: Journey = journey('s', linked('sourceEvents', 's', 'w'), linked('flowWait', 'w', 'e'), createStep('end', 'e'));
    expect(autoLayout(j, {})).toEqual({ s: { x: 0, y: 0 }, w: { x: 0, y: ROW_HEIGHT }, e: { x: 0, y: 2 * ROW_HEIGHT } });
  });

  it('spreads branches side by side, in path order, with the parent centred above', () => {
    const j: Journey = journey(
      's',
      linked('sourceEvents', 's', 'r'),
      linked('flowRandom', 'r', ['a', 'b']),
      createStep('end', 'a'),
      createStep('end', 'b'),
    );
    const pos = autoLayout(j, {});
    expect(pos.a?.x).toBeLessThan(pos.b?.x ?? 0);
    expect((pos.b?.x ?? 0) - (pos.a?.x ?? 0)).toBe(COLUMN_WIDTH);
    expect(pos.r?.x).toBe(((pos.a?.x ?? 0) + (pos.b?.x ?? 0)) / 2);
    expect(pos.s?.x).toBe(pos.r?.x);
  });

  it('puts a join below the deepest of the paths that meet there', () => {
    const j: Journey = journey(
      's',
      linked('sourceEvents', 's', 'r'),
      linked('flowRandom', 'r', ['w', 'join']),
      linked('flowWait', 'w', 'join'),
      linked('flowJoin', 'join', 'e'),
      createStep('end', 'e'),
    );
    const pos = autoLayout(j, {});
    expect(pos.join?.y).toBe(3 * ROW_HEIGHT);
    expect(pos.e?.y).toBe(4 * ROW_HEIGHT);
  });

  it('never overlaps nodes in a large generated journey', () => {
    let j = fullJourney();
    for (let i = 0; i < 12; i++) j = addStepAfter(j, 'rnd', i % 2, i % 3 === 0 ? 'flowSplit' : 'flowWait', `x${i}`);
    expect(overlapping(autoLayout(j, {}))).toEqual([]);
  });

  it('keeps stored positions and places new steps relative to their moved parent', () => {
    const j: Journey = journey('s', linked('sourceEvents', 's', 'w'), linked('flowWait', 'w', 'e'), createStep('end', 'e'));
    const pos = autoLayout(j, { s: { x: 500, y: 40 } });
    expect(pos.s).toEqual({ x: 500, y: 40 });
    expect(pos.w).toEqual({ x: 500, y: 40 + ROW_HEIGHT });
    expect(pos.e).toEqual({ x: 500, y: 40 + 2 * ROW_HEIGHT });
  });

  it('pushes an automatic position aside rather than cover a stored node', () => {
    const j: Journey = journey('s', linked('sourceEvents', 's', 'w'), linked('flowWait', 'w', 'e'), createStep('end', 'e'));
    const pos = autoLayout(j, { s: { x: 0, y: 0 }, e: { x: 0, y: ROW_HEIGHT } });
    expect(pos.e).toEqual({ x: 0, y: ROW_HEIGHT });
    expect(overlapping(pos)).toEqual([]);
    expect(pos.w?.y).toBe(ROW_HEIGHT);
  });

  it('ignores stored positions of missing steps and unusable numbers, and survives cycles', () => {
    const j: Journey = journey('s', linked('sourceEvents', 's', 'a'), linked('flowWait', 'a', 'b'), linked('flowJoin', 'b', 'a'));
    const pos = autoLayout(j, { gone: { x: 1, y: 1 }, a: { x: Number.NaN, y: 0 } });
    expect(Object.keys(pos).sort()).toEqual(['a', 'b', 's']);
    expect(pos.b?.y).toBeGreaterThan(pos.a?.y ?? 0);
  });

  it('draws a part the entry does not reach beside, just above the step it links to', () => {
    const j: Journey = journey(
      's',
      linked('sourceEvents', 's', 'a'),
      linked('flowWait', 'a', 'b'),
      linked('flowJoin', 'b', 'c'),
      linked('flowJoin', 'c', 'e'),
      createStep('end', 'e'),
      linked('flowWait', 'orphan', 'c'),
    );
    const pos = autoLayout(j, {});
    expect(pos.orphan?.y).toBe((pos.c?.y ?? 0) - ROW_HEIGHT);
    expect(pos.orphan?.x).toBeGreaterThan(pos.c?.x ?? 0);
    expect(overlapping(pos)).toEqual([]);
  });

  it('is deterministic', () => {
    const j = fullJourney();
    expect(autoLayout(j, { w: { x: 10, y: 10 } })).toEqual(autoLayout(structuredClone(j), { w: { x: 10, y: 10 } }));
  });
});
