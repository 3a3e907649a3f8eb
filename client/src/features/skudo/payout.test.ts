import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../i18n/keys.ts';
import { payoutParts, payoutText, statusColour } from './payout.ts';

const t = ((key: string, vars?: Record<string, unknown>) => (vars ? `${key}:${JSON.stringify(vars)}` : key)) as unknown as TFunction;

describe('payoutText', () => {
  it('reads money per unit in the currency and the model', () => {
    expect(payoutText(t, 'en', { payoutModel: 'cpl', payoutAmount: 2.5, currency: 'USD' })).toBe('$2.50 · skudo.payout.cpl');
    expect(payoutText(t, 'es', { payoutModel: 'cpc', payoutAmount: 0.35, currency: 'EUR' })).toMatch(/^0,35\s€ · skudo\.payout\.cpc$/);
  });
  it('reads a share of the sale as a percentage, whatever the currency', () => {
    expect(payoutText(t, 'en', { payoutModel: 'cps', payoutAmount: 12.5, currency: 'EUR' })).toBe('skudo.percentOfSale:{"amount":"12.5"}');
  });
  it('splits the payout for a table cell', () => {
    expect(payoutParts(t, 'en', { payoutModel: 'cpc', payoutAmount: 0.35, currency: 'EUR' })).toEqual({ amount: '€0.35', model: 'skudo.payout.cpc' });
    expect(payoutParts(t, 'en', { payoutModel: 'cps', payoutAmount: 12, currency: 'EUR' })).toEqual({ amount: '12 %', model: 'skudo.payout.cps' });
  });
  it('gives every status a colour', () => {
    expect(new Set((['draft', 'active', 'paused', 'ended', 'suspended', 'invited'] as const).map(statusColour)).size).toBe(6);
  });
});
