import { describe, expect, it } from 'vitest';
import { parseBound, revenueText, splitEvents, topEvents } from './skanView.ts';

const money = (x: number) => `$${x.toFixed(2)}`;

describe('skanView', () => {
  it('revenue ranges', () => {
    expect(revenueText(20, 50, money)).toBe('$20.00 – $50.00');
    expect(revenueText(5, null, money)).toBe('$5.00+');
    expect(revenueText(0, 0, money)).toBe('—');
    expect(revenueText(null, null, money)).toBe('—');
    expect(revenueText(7, 7, money)).toBe('$7.00');
  });
  it('events and bounds as typed', () => {
    expect(topEvents({ a: 1, b: 3, c: 3, d: 0, e: 2 }, 3)).toEqual([['b', 3], ['c', 3], ['e', 2]]);
    expect(splitEvents(' register, transaction ,, register')).toEqual(['register', 'transaction']);
    expect(parseBound('')).toBeNull();
    expect(parseBound('12,5')).toBe(12.5);
    expect(parseBound('-1')).toBeUndefined();
    expect(parseBound('abc')).toBeUndefined();
  });
});
