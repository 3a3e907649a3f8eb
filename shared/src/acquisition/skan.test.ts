import { describe, expect, it } from 'vitest';
import {
  SKAN_SEPARATOR, SkanConversionSchema, SkanPostbackBody, decodeSkanValue, resolveSkanCampaign, skanFacts, skanFigures, skanSignedString,
  skanVersionFamily, type SkanFigureRow,
} from './skan.ts';

const S = SKAN_SEPARATOR;
const raw4 = (over: Record<string, unknown> = {}) => ({
  version: '4.0', 'ad-network-id': 'com.example', 'source-identifier': '5239', 'app-id': 525463029,
  'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30', redownload: false, 'source-app-id': 1234567891, 'fidelity-type': 1,
  'did-win': true, 'conversion-value': 63, 'postback-sequence-index': 0, 'attribution-signature': 'sig', ...over,
});
const v4 = (over: Record<string, unknown> = {}) => SkanPostbackBody.parse(raw4(over));

describe('skanSignedString', () => {
  it('joins the 4.0 fields in Apple\'s order with U+2063, without the conversion values', () => {
    expect(skanSignedString(v4())).toEqual({ ok: true, text: ['4.0', 'com.example', '5239', '525463029', '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30', 'false', '1234567891', '1', 'true', '0'].join(S) });
    const coarse = skanSignedString(v4({ 'conversion-value': undefined, 'coarse-conversion-value': 'high' }));
    expect(coarse).toEqual(skanSignedString(v4()));
  });

  it('4.0: source-domain for web ads, nothing when neither is sent (non-winning postbacks)', () => {
    const web = skanSignedString(v4({ 'source-app-id': undefined, 'source-domain': 'example.com' }));
    expect(web.ok && web.text.split(S)).toEqual(['4.0', 'com.example', '5239', '525463029', '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30', 'false', 'example.com', '1', 'true', '0']);
    const none = skanSignedString(v4({ 'source-app-id': undefined, 'did-win': false }));
    expect(none.ok && none.text.split(S)).toEqual(['4.0', 'com.example', '5239', '525463029', '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30', 'false', '1', 'false', '0']);
  });

  it('3.0 and 2.2: campaign-id, did-win only from 3.0, no sequence index', () => {
    const base = { 'ad-network-id': 'example123.skadnetwork', 'campaign-id': 42, 'app-id': 525463029, 'transaction-id': 't-1', redownload: true, 'source-app-id': 1234567891, 'fidelity-type': 1 };
    const v3 = skanSignedString(SkanPostbackBody.parse({ ...base, version: '3.0', 'did-win': true }));
    expect(v3.ok && v3.text.split(S)).toEqual(['3.0', 'example123.skadnetwork', '42', '525463029', 't-1', 'true', '1234567891', '1', 'true']);
    const v22 = skanSignedString(SkanPostbackBody.parse({ ...base, version: '2.2' }));
    expect(v22.ok && v22.text.split(S)).toEqual(['2.2', 'example123.skadnetwork', '42', '525463029', 't-1', 'true', '1234567891', '1']);
  });

  it('refuses versions without a documented P-256 order and postbacks missing a signed field', () => {
    expect(skanVersionFamily('2.1')).toBeNull();
    expect(skanVersionFamily(undefined)).toBeNull();
    expect(skanVersionFamily('4.1')).toBe('4');
    expect(skanSignedString(v4({ version: '2.0' }))).toEqual({ ok: false, reason: 'unsupported_version' });
    expect(skanSignedString(v4({ 'postback-sequence-index': undefined }))).toEqual({ ok: false, reason: 'missing_field', field: 'postback-sequence-index' });
    expect(skanSignedString(v4({ 'source-identifier': undefined }))).toMatchObject({ ok: false, field: 'source-identifier' });
  });
});

describe('the postback body', () => {
  it('reads fine values 0..63, coarse low/medium/high and the three windows', () => {
    expect(SkanPostbackBody.safeParse(raw4({ 'conversion-value': 64 })).success).toBe(false);
    expect(SkanPostbackBody.safeParse(raw4({ 'coarse-conversion-value': 'huge' })).success).toBe(false);
    expect(SkanPostbackBody.safeParse(raw4({ 'postback-sequence-index': 3 })).success).toBe(false);
    const f = skanFacts(v4({ 'conversion-value': undefined, 'coarse-conversion-value': 'medium', 'postback-sequence-index': 2 }));
    expect(f).toMatchObject({ window: 2, fineValue: null, coarseValue: 'medium', sourceIdentifier: '5239', appStoreId: '525463029', didWin: true });
    expect(skanFacts(SkanPostbackBody.parse({ version: '3.0', 'ad-network-id': 'n', 'campaign-id': 7, 'app-id': '1', 'transaction-id': 't' }))).toMatchObject({ sourceIdentifier: '7', window: 0, didWin: null });
  });
});

const schema = SkanConversionSchema.parse({
  currency: 'EUR',
  fine: [
    { value: 0, events: ['gd_install'] },
    { value: 10, events: ['register'], revenueMin: 0, revenueMax: 0 },
    { value: 63, events: ['register', 'transaction'], revenueMin: 20, revenueMax: 50 },
  ],
  coarse: [
    { window: 0, value: 'high', events: ['transaction'], revenueMin: 5, revenueMax: null },
    { window: 1, value: 'low', events: ['login'] },
  ],
});

describe('decodeSkanValue', () => {
  it('a fine value wins; coarse values are per window; unmapped and missing values say so', () => {
    expect(decodeSkanValue(schema, { window: 0, fineValue: 63, coarseValue: 'low' })).toEqual({ kind: 'fine', mapped: true, events: ['register', 'transaction'], revenueMin: 20, revenueMax: 50 });
    expect(decodeSkanValue(schema, { window: 0, fineValue: 5, coarseValue: null })).toMatchObject({ kind: 'fine', mapped: false, events: [] });
    expect(decodeSkanValue(schema, { window: 1, fineValue: null, coarseValue: 'low' })).toMatchObject({ kind: 'coarse', mapped: true, events: ['login'] });
    expect(decodeSkanValue(schema, { window: 2, fineValue: null, coarseValue: 'low' })).toMatchObject({ kind: 'coarse', mapped: false });
    expect(decodeSkanValue(schema, { window: 0, fineValue: null, coarseValue: null })).toMatchObject({ kind: 'none', mapped: false });
  });

  it('the schema refuses a value mapped twice and a range that ends before it starts', () => {
    expect(SkanConversionSchema.safeParse({ fine: [{ value: 1 }, { value: 1 }] }).success).toBe(false);
    expect(SkanConversionSchema.safeParse({ coarse: [{ window: 0, value: 'low' }, { window: 0, value: 'low' }] }).success).toBe(false);
    expect(SkanConversionSchema.safeParse({ coarse: [{ window: 0, value: 'low' }, { window: 1, value: 'low' }] }).success).toBe(true);
    expect(SkanConversionSchema.safeParse({ fine: [{ value: 2, revenueMin: 10, revenueMax: 5 }] }).success).toBe(false);
    expect(SkanConversionSchema.safeParse({ fine: [{ value: 64 }] }).success).toBe(false);
  });
});

describe('resolveSkanCampaign', () => {
  const mappings = [
    { adNetworkId: 'net.a', sourceIdentifier: '5239', campaignId: 'c1' },
    { adNetworkId: 'net.a', sourceIdentifier: '1139', campaignId: 'c2' },
    { adNetworkId: 'net.a', sourceIdentifier: '7712', campaignId: 'c3' },
    { adNetworkId: 'net.b', sourceIdentifier: '39', campaignId: 'c4' },
  ];
  it('exact identifier first, then the only mapping it is the last digits of', () => {
    expect(resolveSkanCampaign(mappings, 'net.a', '5239')).toBe('c1');
    expect(resolveSkanCampaign(mappings, 'NET.A', '239')).toBe('c1');
    expect(resolveSkanCampaign(mappings, 'net.a', '12')).toBe('c3');
    expect(resolveSkanCampaign(mappings, 'net.a', '39')).toBeNull();
    expect(resolveSkanCampaign(mappings, 'net.b', '39')).toBe('c4');
    expect(resolveSkanCampaign(mappings, 'net.c', '5239')).toBeNull();
  });
});

describe('skanFigures', () => {
  const mappings = [{ adNetworkId: 'net.a', sourceIdentifier: '5239', campaignId: 'c1' }];
  const row = (over: Partial<SkanFigureRow>): SkanFigureRow => ({ adNetworkId: 'net.a', sourceIdentifier: '5239', window: 0, fineValue: null, coarseValue: null, redownload: false, count: 1, ...over });
  it('adds installs, conversions by event and revenue ranges per campaign and window', () => {
    const figures = skanFigures([
      row({ fineValue: 63, count: 3 }),
      row({ fineValue: 10, count: 2, redownload: true }),
      row({ fineValue: 5, count: 1 }),
      row({ count: 4 }),
      row({ window: 1, coarseValue: 'low', count: 2 }),
      row({ sourceIdentifier: '0001', fineValue: 0, count: 7 }),
    ], schema, mappings);
    expect(figures.map((f) => f.campaignId)).toEqual(['c1', null]);
    const [c1, unmapped] = figures;
    expect(c1!.windows[0]).toEqual({
      window: 0, postbacks: 10, installs: 8, redownloads: 2, fine: 6, coarse: 0, noValue: 4, unmapped: 1,
      events: { register: 5, transaction: 3 }, revenueMin: 60, revenueMax: 150,
    });
    expect(c1!.windows[1]).toMatchObject({ postbacks: 2, installs: 0, coarse: 2, events: { login: 2 }, revenueMin: 0, revenueMax: 0 });
    expect(c1!.windows[2]!.postbacks).toBe(0);
    expect(unmapped).toMatchObject({ adNetworkId: 'net.a', sourceIdentifier: '0001' });
    expect(unmapped!.windows[0]).toMatchObject({ installs: 7, events: { gd_install: 7 } });
  });

  it('an open upper bound leaves the maximum open', () => {
    const [c1] = skanFigures([row({ coarseValue: 'high', count: 2 }), row({ fineValue: 63 })], schema, mappings);
    expect(c1!.windows[0]).toMatchObject({ revenueMin: 30, revenueMax: null });
  });
});
