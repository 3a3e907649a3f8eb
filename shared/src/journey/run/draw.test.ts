import { describe, expect, it } from 'vitest';
import { journey, mk } from '../testing.ts';
import { advance, startEntry } from './advance.ts';
import { entryDraw } from './draw.ts';
import { T0, fixedFacts } from './testing.ts';

/** The value of one draw, pinned: changing the hash would move running entries to other branches. */
const PINNED = '0.178687731481';

describe('entryDraw', () => {
  it('is deterministic and in [0, 1)', () => {
    const a = entryDraw('person-1', 'entry-1', 'rnd');
    expect(entryDraw('person-1', 'entry-1', 'rnd')).toBe(a);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThan(1);
  });

  it('differs by person, entry and step, and does not mix the parts up', () => {
    const values = [
      entryDraw('person-1', 'entry-1', 'rnd'), entryDraw('person-2', 'entry-1', 'rnd'),
      entryDraw('person-1', 'entry-2', 'rnd'), entryDraw('person-1', 'entry-1', 'rnd2'),
      entryDraw('person-1entry-1', '', 'rnd'), entryDraw('', 'person-1', 'entry-1rnd'),
    ];
    expect(new Set(values).size).toBe(values.length);
  });

  it('is fixed across releases (the browser simulator and the server agree, a retried transition takes the same branch)', () => {
    expect(entryDraw('p', 'e', 's')).toBe(entryDraw('p', 'e', 's'));
    expect(entryDraw('00000000-0000-0000-0000-000000000001', 'entry', 'step').toFixed(12)).toBe(PINNED);
  });

  it('splits 10,000 people 70/30 within 2 points, and spreads evenly over tenths', () => {
    const j = journey('rnd', { ...mk('flowRandom', 'rnd'), paths: [
      { id: 'a', name: '', next: 'x', amount: 0.7 }, { id: 'b', name: '', next: 'x', amount: 0.3 },
    ] }, mk('end', 'x'));
    const counts = { a: 0, b: 0 };
    const tenths = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const personId = `person-${i}`;
      const entryId = `entry-${i % 7}`;
      const r = advance(j, startEntry('rnd', T0), T0, fixedFacts(), (stepId) => entryDraw(personId, entryId, stepId));
      counts[r.passed[0]?.pathId as 'a' | 'b']++;
      tenths[Math.floor(entryDraw(personId, entryId, 'rnd') * 10)]!++;
    }
    expect(counts.a + counts.b).toBe(10_000);
    expect(Math.abs(counts.a / 10_000 - 0.7)).toBeLessThanOrEqual(0.02);
    for (const n of tenths) expect(Math.abs(n - 1000)).toBeLessThan(150);
  });
});
