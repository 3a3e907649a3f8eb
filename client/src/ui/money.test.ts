import { describe, expect, it } from 'vitest';
import { formatMoney, moneyFormatter } from './money.ts';

const spaces = (s: string) => s.replace(/\s/g, ' ');

describe('money', () => {
  it('shows an amount in its currency, with the language’s symbol and placement', () => {
    expect(formatMoney('en', 1234.5, 'EUR')).toBe('€1,234.50');
    expect(spaces(formatMoney('es', 1234.5, 'EUR'))).toBe('1234,50 €');
    expect(spaces(formatMoney('es', 12345.5, 'USD'))).toBe('12.345,50 US$');
    expect(formatMoney('en', 25, 'usd')).toBe('$25.00');
    expect(formatMoney('en', -3.2, 'GBP')).toBe('-£3.20');
  });

  it('keeps the currency’s own decimals', () => {
    expect(formatMoney('en', 1500, 'JPY')).toBe('¥1,500');
  });

  it('shows a plain number with cents without a currency, or with one that is not a code', () => {
    expect(formatMoney('en', 1234.5, null)).toBe('1,234.50');
    expect(spaces(formatMoney('es', 1234.5, undefined))).toBe('1234,50');
    expect(formatMoney('en', 25, '€€')).toBe('25.00');
    expect(formatMoney('en', 25, 'EURO')).toBe('25.00');
  });

  it('formats many amounts with one formatter', () => {
    const eur = moneyFormatter('en', 'EUR');
    expect([0, 9.99, 1000].map(eur)).toEqual(['€0.00', '€9.99', '€1,000.00']);
  });
});
