import { describe, expect, it } from 'vitest';
import { DASH, changeColor, changeOf, formatFigure } from './format.ts';

describe('acquisition report figures', () => {
  it('writes null and non-finite figures as a dash', () => {
    expect(formatFigure('en', 'percent', null)).toBe(DASH);
    expect(formatFigure('en', 'money', Number.NaN)).toBe(DASH);
  });
  it('writes counts, money and percentages in the language', () => {
    expect(formatFigure('en', 'count', 12345)).toBe('12,345');
    expect(formatFigure('en', 'money', 1234.5)).toBe('1,234.50');
    expect(formatFigure('es', 'money', 1234.5)).toBe('1234,50');
    expect(formatFigure('en', 'percent', 0.125)).toBe('12.5%');
  });
  it('changes on the previous period', () => {
    expect(changeOf(15, 10)).toEqual({ kind: 'up', ratio: 0.5 });
    expect(changeOf(5, 10)).toEqual({ kind: 'down', ratio: -0.5 });
    expect(changeOf(5, 0)).toEqual({ kind: 'none' });
    expect(changeOf(null, 3)).toEqual({ kind: 'none' });
    expect(changeOf(4, 4)).toEqual({ kind: 'same' });
    expect(changeColor({ kind: 'up', ratio: 1 })).toBe('teal');
    expect(changeColor({ kind: 'up', ratio: 1 }, true)).toBe('red');
    expect(changeColor({ kind: 'none' })).toBe('gray');
  });
});
