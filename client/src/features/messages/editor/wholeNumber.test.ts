import { describe, expect, it } from 'vitest';
import { wholeNumber } from './wholeNumber.ts';

describe('wholeNumber', () => {
  it('keeps a typed whole number as it is, also out of range', () => {
    expect(wholeNumber(2)).toBe(2);
    expect(wholeNumber(25)).toBe(25);
    expect(wholeNumber(1000)).toBe(1000);
  });
  it('ignores an empty entry or a fraction', () => {
    expect(wholeNumber('')).toBeNull();
    expect(wholeNumber('-')).toBeNull();
    expect(wholeNumber(2.5)).toBeNull();
    expect(wholeNumber(Number.NaN)).toBeNull();
  });
});
