import { describe, expect, it } from 'vitest';
import { singleCurrency } from './currency.ts';

describe('the currency of a revenue figure', () => {
  it('is the one currency its events named', () => {
    expect(singleCurrency(['EUR'])).toBe('EUR');
  });

  it('is none when they named several, none, or there were no revenue events', () => {
    expect(singleCurrency(['EUR', 'USD'])).toBeNull();
    expect(singleCurrency([null, 'EUR'])).toBeNull();
    expect(singleCurrency([null])).toBeNull();
    expect(singleCurrency([])).toBeNull();
  });
});
