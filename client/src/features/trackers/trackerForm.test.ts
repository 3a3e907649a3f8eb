/** The tracker dialog's checks (trackerForm.ts). */
import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../i18n/keys.ts';
import { initialTrackerValues, trackerBody, validateTracker } from './trackerForm.ts';

const t = ((key: string) => key) as TFunction;
const PROVIDER = '8f14e45f-ceea-467f-a0e6-6f1f5b1f0c11';
const withUrl = [{ id: PROVIDER, name: 'Net', eventPostbackUrl: 'https://pb.example.com/e?c={click_id}' }];
const withoutUrl = [{ id: PROVIDER, name: 'Net', eventPostbackUrl: null }];
const filled = { ...initialTrackerValues(undefined, withUrl), name: 'Purchases', event: 'gd_transaction' };

describe('tracker form', () => {
  it('picks the only provider and sends empty texts as null', () => {
    expect(filled.accountProviderId).toBe(PROVIDER);
    expect(trackerBody({ ...filled, providerEvent: '  ', postbackUrl: ' ' })).toMatchObject({ postbackUrl: null, providerEvent: null, campaignId: null });
  });

  it('accepts the provider URL, and asks for one when the provider has none', () => {
    expect(validateTracker(filled, t, withUrl)).toEqual({});
    expect(validateTracker(filled, t, withoutUrl)).toEqual({ postbackUrl: 'trackers.urlHintNoProvider' });
    expect(validateTracker({ ...filled, postbackUrl: 'https://pb.example.com/t?c={click_id}' }, t, withoutUrl)).toEqual({});
  });

  it('refuses a private address, a missing event and a missing provider', () => {
    expect(validateTracker({ ...filled, postbackUrl: 'http://192.168.1.4/p' }, t, withUrl)).toEqual({ postbackUrl: 'validation.format' });
    expect(Object.keys(validateTracker({ ...filled, event: '', accountProviderId: null }, t, withUrl)).sort()).toEqual(['accountProviderId', 'event']);
  });
});
