import { describe, expect, it } from 'vitest';
import type { Journey } from '@gd/shared/journey/model';
import { countsKey, formatOffset, nodeCounts, percentOf, simulatedPath } from './format.ts';

const units = { d: 'd', h: 'h', min: 'min', s: 's' };

describe('formatOffset', () => {
  it('shows the two largest units from the start', () => {
    expect(formatOffset(0, units)).toBe('+0 s');
    expect(formatOffset(45, units)).toBe('+45 s');
    expect(formatOffset(90, units)).toBe('+1 min 30 s');
    expect(formatOffset(3_600, units)).toBe('+1 h');
    expect(formatOffset(86_400 + 2 * 3_600, units)).toBe('+1 d 2 h');
    expect(formatOffset(86_400 + 2 * 3_600 + 59, units)).toBe('+1 d 2 h');
    expect(formatOffset(90 * 86_400, units)).toBe('+90 d');
  });

  it('never skips a unit between the two it shows, and never rounds up', () => {
    expect(formatOffset(86_400 + 5 * 60, units)).toBe('+1 d');
    expect(formatOffset(3_600 + 59.9, units)).toBe('+1 h');
    expect(formatOffset(59.9, units)).toBe('+59 s');
  });

  it('reads negative or non-finite offsets as the start, and takes the unit words given', () => {
    expect(formatOffset(-5, units)).toBe('+0 s');
    expect(formatOffset(Number.NaN, units)).toBe('+0 s');
    expect(formatOffset(2 * 86_400 + 3_600, { d: 'días', h: 'horas', min: 'min', s: 's' })).toBe('+2 días 1 horas');
    expect(formatOffset(3 * 86_400 + 3_600 + 60, units, 3)).toBe('+3 d 1 h 1 min');
  });
});

describe('nodeCounts', () => {
  const journey: Pick<Journey, 'steps'> = {
    steps: [
      { id: 'entry', type: 'sourceEvents', eventIds: ['signup'], next: 'new' },
      { id: 'new', type: 'flowWait', duration: 60, next: 'end' },
      { id: 'end', type: 'end' },
    ],
  };
  const counts = [
    { currentStepId: 'entry', users: 0, cumulativeUsers: 12, conversions: 0 },
    { currentStepId: 'gone', users: 3, cumulativeUsers: 5, conversions: 1 },
    { currentStepId: 'end', users: 0, cumulativeUsers: 9, conversions: 2 },
  ];

  it('maps the version counts onto the draft steps the version has', () => {
    expect(nodeCounts(counts, journey)).toEqual({
      entry: { now: 0, total: 12, conversions: 0 },
      end: { now: 0, total: 9, conversions: 2 },
    });
  });

  it('gives no badge to a step added since the launch, and none at all without counts', () => {
    expect(nodeCounts(counts, journey).new).toBeUndefined();
    expect(nodeCounts(undefined, journey)).toEqual({});
  });

  it('keys the counts by their figures, not by the order they came in', () => {
    const a = nodeCounts(counts, journey);
    const b = nodeCounts([...counts].reverse(), journey);
    expect(countsKey(a)).toBe(countsKey(b));
    expect(countsKey(a)).not.toBe(countsKey(nodeCounts([{ ...counts[0]!, users: 1 }, ...counts.slice(1)], journey)));
  });
});

describe('simulatedPath', () => {
  it('lists each step once in the order first passed, then where the person stopped', () => {
    expect(simulatedPath([{ stepId: 'a' }, { stepId: 'b' }, { stepId: 'a' }, { stepId: 'c' }], 'd')).toEqual(['a', 'b', 'c', 'd']);
    expect(simulatedPath([{ stepId: 'a' }], 'a')).toEqual(['a']);
    expect(simulatedPath([], null)).toEqual([]);
  });
});

describe('percentOf', () => {
  it('gives one decimal, and nothing of nothing', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(0, 0)).toBeNull();
  });
});
