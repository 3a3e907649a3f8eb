import { describe, expect, it } from 'vitest';
import { MAX_DURATION_SECONDS } from '@gd/shared/journey/model';
import { splitDuration, toSeconds } from './duration.ts';

describe('durations', () => {
  it('shows the default wait as 1 day and picks the largest even unit', () => {
    expect(splitDuration(86_400)).toEqual({ value: 1, unit: 'days' });
    expect(splitDuration(7_200)).toEqual({ value: 2, unit: 'hours' });
    expect(splitDuration(90 * 60)).toEqual({ value: 90, unit: 'minutes' });
    expect(splitDuration(0)).toEqual({ value: 0, unit: 'days' });
    expect(splitDuration(90)).toEqual({ value: 1.5, unit: 'minutes' });
  });

  it('converts back to whole seconds within the schema range', () => {
    expect(toSeconds(1, 'days')).toBe(86_400);
    expect(toSeconds(1.5, 'hours')).toBe(5_400);
    expect(toSeconds(-3, 'minutes')).toBe(0);
    expect(toSeconds(Number.NaN, 'minutes')).toBe(0);
    expect(toSeconds(1e9, 'days')).toBe(MAX_DURATION_SECONDS);
    for (const s of [60, 3_600, 86_400, 5_400, 600]) {
      const { value, unit } = splitDuration(s);
      expect(toSeconds(value, unit)).toBe(s);
    }
  });
});
