import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ErrorCode } from '../errors.ts';
import {
  SKUDO_CODE_ALPHABET, SKUDO_CODE_LENGTH, deletionRefusal, destinationWithClick, formatSkudoCode, normaliseSkudoCode, skudoCodeFromBytes,
  skudoCodeState, trackingCodeFromBytes, trackingLive, TRACKING_CODE_PATTERN,
} from './model.ts';

describe('deletion guards', () => {
  it('refuses an offer with active URLs (20001), a campaign with active offers (20002), a provider with active URLs (20003)', () => {
    expect(deletionRefusal('offer', { activeUrls: 1, activeOffers: 0 })).toBe(ErrorCode.SKUDO_OFFER_HAS_ACTIVE_URLS);
    expect(deletionRefusal('campaign', { activeUrls: 0, activeOffers: 2 })).toBe(ErrorCode.CAMPAIGN_HAS_ACTIVE_OFFERS);
    expect(deletionRefusal('provider', { activeUrls: 3, activeOffers: 0 })).toBe(ErrorCode.PROVIDER_HAS_ACTIVE_URLS);
  });
  it('lets them go when nothing is active', () => {
    expect(deletionRefusal('offer', { activeUrls: 0, activeOffers: 5 })).toBeNull();
    expect(deletionRefusal('campaign', { activeUrls: 9, activeOffers: 0 })).toBeNull();
    expect(deletionRefusal('provider', { activeUrls: 0, activeOffers: 4 })).toBeNull();
  });
});

describe('authorization codes', () => {
  it('reads a typed code in any case, with dashes or spaces', () => {
    expect(normaliseSkudoCode('abcd-efgh-jkmn')).toBe('ABCDEFGHJKMN');
    expect(normaliseSkudoCode(' ABCD EFGH JKMN ')).toBe('ABCDEFGHJKMN');
    expect(formatSkudoCode('ABCDEFGHJKMN')).toBe('ABCD-EFGH-JKMN');
  });
  it('refuses what cannot be a code (length, look-alike characters)', () => {
    expect(normaliseSkudoCode('ABCD-EFGH-JKM')).toBeNull();
    expect(normaliseSkudoCode('ABCD-EFGH-JKM0')).toBeNull();
    expect(normaliseSkudoCode('ABCD-EFGH-JKMI')).toBeNull();
    expect(normaliseSkudoCode('')).toBeNull();
  });
  it('generates codes of the alphabet that read back as themselves', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (bytes) => {
      const code = skudoCodeFromBytes(bytes);
      if (code === null) return;
      expect(code).toHaveLength(SKUDO_CODE_LENGTH);
      expect([...code].every((c) => SKUDO_CODE_ALPHABET.includes(c))).toBe(true);
      expect(normaliseSkudoCode(formatSkudoCode(code).toLowerCase())).toBe(code);
    }));
  });
  it('is valid until it expires, once, and only for an active partner', () => {
    const now = new Date('2026-05-01T10:00:00Z');
    const row = { usedAt: null, expiresAt: new Date('2026-05-01T10:30:00Z'), partnerActive: true };
    expect(skudoCodeState(row, now)).toBe('valid');
    expect(skudoCodeState(row, new Date('2026-05-01T10:30:00Z'))).toBe('expired');
    expect(skudoCodeState({ ...row, usedAt: now }, now)).toBe('invalid');
    expect(skudoCodeState({ ...row, partnerActive: false }, now)).toBe('invalid');
    expect(skudoCodeState(undefined, now)).toBe('invalid');
    // A used code stays invalid (not expired) after its time: it says the code was spent.
    expect(skudoCodeState({ ...row, usedAt: now }, new Date('2026-06-01T00:00:00Z'))).toBe('invalid');
  });
});

describe('tracking URLs', () => {
  it('generates 8-character codes the host accepts', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
      const code = trackingCodeFromBytes(bytes);
      if (code !== null) expect(code).toMatch(TRACKING_CODE_PATTERN);
    }));
  });

  const live = { urlActive: true, offerStatus: 'active' as const, partnerStatus: 'active' as const, campaign: null, today: '2026-05-10' };
  it('redirects only for an active URL of an active offer and partner', () => {
    expect(trackingLive(live)).toBe(true);
    expect(trackingLive({ ...live, partnerStatus: null })).toBe(true);
    expect(trackingLive({ ...live, urlActive: false })).toBe(false);
    expect(trackingLive({ ...live, offerStatus: 'paused' })).toBe(false);
    expect(trackingLive({ ...live, offerStatus: 'draft' })).toBe(false);
    expect(trackingLive({ ...live, partnerStatus: 'suspended' })).toBe(false);
  });
  it('within its campaign\'s days, while the campaign is active', () => {
    const campaign = { status: 'active' as const, startsOn: '2026-05-01', endsOn: '2026-05-10' };
    expect(trackingLive({ ...live, campaign })).toBe(true);
    expect(trackingLive({ ...live, campaign, today: '2026-05-11' })).toBe(false);
    expect(trackingLive({ ...live, campaign, today: '2026-04-30' })).toBe(false);
    expect(trackingLive({ ...live, campaign: { ...campaign, endsOn: null }, today: '2027-01-01' })).toBe(true);
    expect(trackingLive({ ...live, campaign: { ...campaign, status: 'paused' } })).toBe(false);
  });
  it('hands the click id to the destination', () => {
    expect(destinationWithClick('https://shop.example.com/p?x=1', 'c1')).toBe('https://shop.example.com/p?x=1&skudo_click=c1');
    expect(destinationWithClick('https://shop.example.com/p?sub={click_id}', 'c 1')).toBe('https://shop.example.com/p?sub=c%201');
  });
});
