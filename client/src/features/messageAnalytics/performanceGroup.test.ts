import { describe, expect, it } from 'vitest';
import { defaultGroupFor } from './performanceGroup.ts';

describe('defaultGroupFor', () => {
  it("follows the range's grouping, reading an hourly range by day", () => {
    expect(defaultGroupFor('hour')).toBe('day');
    expect(defaultGroupFor('day')).toBe('day');
    expect(defaultGroupFor('week')).toBe('week');
    expect(defaultGroupFor('month')).toBe('month');
  });
});
