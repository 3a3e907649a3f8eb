import { describe, expect, it } from 'vitest';
import { CampaignInput, type Campaign } from '@gd/shared/schemas/acquisition';
import { campaignBody, campaignFormValues, figureText, formField } from './campaignForm.ts';

describe('campaign form', () => {
  it('makes a request the shared schema accepts, with nulls for empty fields and destinations per platform', () => {
    const values = { ...campaignFormValues(undefined, { sourceId: '7a0c1c4e-7a43-4a3c-9a43-2f2f1ab0c001' }), name: 'Spring', costValue: '2.5', iosStore: 'https://apps.apple.com/app/id1', web: 'https://example.com/s' };
    const body = campaignBody(values);
    expect(body).toMatchObject({ channelId: null, costValue: 2.5, costEvent: null, startDay: null, deepLink: null });
    expect(body.destinations).toEqual({ ios: { store: 'https://apps.apple.com/app/id1', web: 'https://example.com/s' }, android: { web: 'https://example.com/s' }, desktop: { web: 'https://example.com/s' } });
    expect(CampaignInput.safeParse(body).success).toBe(true);
  });

  it('keeps the deep links of destinations the form does not edit, and a cpa event only for cpa', () => {
    const kept = { android: { deepLink: 'shop://x', store: 'https://play.google.com/store/apps/details?id=a' } };
    const values = { ...campaignFormValues({ destinations: kept } as unknown as Campaign), pricingModel: 'cpc' as const, costEvent: 'gd_transaction', androidStore: '' };
    const body = campaignBody(values, kept);
    expect(body.destinations).toEqual({ android: { deepLink: 'shop://x' } });
    expect(body.costEvent).toBeNull();
    expect(campaignBody({ ...values, pricingModel: 'cpa' }).costEvent).toBe('gd_transaction');
  });

  it('maps request paths to fields and formats figures, null as the dash', () => {
    expect(formField('destinations.android.store')).toBe('androidStore');
    expect(formField('destinations.desktop.web')).toBe('web');
    expect(formField('costEvent')).toBe('costEvent');
    expect(figureText(null, 'percent', 'en-US', '–')).toBe('–');
    expect(figureText(0.256, 'percent', 'en-US', '–')).toBe('25.6%');
    expect(figureText(1234, 'count', 'es-ES', '–')).toBe('1234');
  });
});
