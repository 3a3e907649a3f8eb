/**
 * The in-memory evaluator on the people of the SQL engine's fixed cases
 * (api-server/src/features/segments/evaluate.int.test.ts): the same data, the same answers.
 * "Now" is 2026-03-15 12:00 UTC; the app's time zone is UTC unless a case says otherwise.
 */
import { describe, expect, it } from 'vitest';
import {
  compareVersions, evaluateSegment, jsonText, localDay, lowerText, parseDecimal, compareDecimal, plainDecimal, versionKey,
  type EvalContext, type EvalPerson,
} from './evaluate.ts';
import { createConditionNode, createGroupNode, type Segment, type SegmentCondition, type SegmentOperator } from './model.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const PLAN = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const SCORE = '1c6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d12';
const RENEWAL = '2d6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d13';
const AUDIENCE_X = '3e6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d14';
const ctx = (over: Partial<EvalContext> = {}): EvalContext => ({
  timezone: 'UTC', now: NOW, tags: new Map([[PLAN, 'text'], [SCORE, 'number'], [RENEWAL, 'date']] as const), audiences: new Set([AUDIENCE_X]), ...over,
});

const PEOPLE: EvalPerson[] = [
  {
    id: 'ana', email: 'Ana@Example.com', country: 'ES', state: 'Madrid', city: 'Madrid', appVersion: '1.10.0', osVersion: '17.2', sdkVersion: '2.1.0',
    source: 'facebook', campaign: 'spring', installAt: '2025-03-15T10:00:00Z', registeredAt: '2026-03-14T08:00:00Z', firstLoginAt: '2026-03-14T10:00:00Z',
    lastLoginAt: '2026-03-15T09:00:00Z', lastSessionAt: '2026-03-10T10:00:00Z', firstPurchaseAt: '2026-01-10T10:00:00Z', lastPurchaseAt: '2026-03-14T10:00:00Z',
    revenue: 120, conversions: 3, birthday: '1990-03-15',
    devices: [{ os: 'iOS', osVersion: '17.2', model: 'iPhone15', pushToken: 'tok-ana', pushEnabled: true }],
    events: [
      { name: 'purchase_done', time: '2026-03-14T10:00:00Z', properties: { plan: 'Gold', amount: 30, tags: ['a', 'b'], paid: true } },
      { name: 'purchase_done', time: '2026-03-10T10:00:00Z', properties: { plan: 'silver', amount: '12.5' } },
      { name: 'gd_transaction', time: '2026-03-01T10:00:00Z', properties: { product_id: 'sku-1', price: 100 }, revenue: 100 },
      { name: 'gd_transaction', time: '2026-03-14T10:00:00Z', properties: { product_id: ['sku-2', 'sku-3'], price: 20 }, revenue: 20 },
      { name: 'e_screen_name', time: '2026-03-15T08:00:00Z', properties: { screen: 'Home' } },
      { name: 'gd_login', time: '2026-03-15T09:00:00Z' },
    ],
    sessions: [{ startedAt: '2026-03-01T10:00:00Z' }, { startedAt: '2026-03-10T10:00:00Z' }],
    lifecycle: [{ kind: 'install', source: 'facebook', campaign: 'spring' }, { kind: 'reinstall', source: 'google', campaign: 'summer' }],
    interactions: [
      { channel: 'inapp', kind: 'impression', time: '2026-03-14T10:00:00Z', messageId: 'm1' },
      { channel: 'inapp', kind: 'impression', time: '2026-03-14T11:00:00Z', messageId: 'm1' },
      { channel: 'inapp', kind: 'click', time: '2026-03-14T11:00:01Z', messageId: 'm1' },
      { channel: 'push', kind: 'impression', time: '2026-03-15T08:00:00Z', campaignId: 'c1', journeyId: 'j1', messageId: 'p1' },
      { channel: 'push', kind: 'impression', time: '2026-03-15T09:00:00Z', campaignId: 'c1', journeyId: 'j1', messageId: 'p1' },
      { channel: 'push', kind: 'click', time: '2026-03-15T09:05:00Z', campaignId: 'c1', journeyId: 'j1', messageId: 'p1' },
    ],
    tags: {
      [PLAN]: { value: 'Gold', updatedAt: '2026-03-15T10:00:00Z' },
      [SCORE]: { value: 10, updatedAt: '2026-03-15T10:00:00Z' },
      [RENEWAL]: { value: '2026-03-18', updatedAt: '2026-03-15T10:00:00Z' },
    },
    audiences: [AUDIENCE_X],
  },
  {
    id: 'ben', country: 'FR', city: '', appVersion: '1.9.5', sdkVersion: '1.0', source: 'Organic', installAt: '2026-02-01T10:00:00Z',
    registeredAt: '2026-03-01T12:00:00Z', firstLoginAt: '2026-02-01T10:00:00Z', lastLoginAt: '2026-02-01T10:00:00Z', lastSessionAt: '2026-02-01T10:00:00Z',
    birthday: '1992-02-29',
    devices: [{ os: 'Android', osVersion: '14', model: 'Pixel', pushToken: 'tok-ben', pushEnabled: false }],
    events: [
      ...['01', '02', '03'].map((day) => ({ name: 'purchase_done', time: `2026-02-${day}T10:00:00Z`, properties: { plan: 'gold', amount: 5 } })),
      { name: 'e_screen_name', time: '2026-03-14T10:00:00Z', properties: { screen: 'Cart' } },
    ],
    sessions: [{ startedAt: '2026-02-01T10:00:00Z' }],
    lifecycle: [{ kind: 'install', source: 'Organic', campaign: null }],
    interactions: [
      { channel: 'inapp', kind: 'impression', time: '2026-03-01T10:00:00Z', messageId: 'm2' },
      { channel: 'email', kind: 'impression', time: '2026-03-10T10:00:00Z', campaignId: 'c2' },
      ...['01', '02', '03', '04'].map((hour) => ({ channel: 'push' as const, kind: 'impression' as const, time: `2026-03-15T${hour}:00:00Z`, campaignId: 'c1' })),
    ],
    tags: {
      [PLAN]: { value: 'silver', updatedAt: '2026-03-01T10:00:00Z' },
      [SCORE]: { value: 3.5, updatedAt: '2026-03-01T10:00:00Z' },
      [RENEWAL]: { value: '2026-03-10', updatedAt: '2026-01-01T10:00:00Z' },
    },
  },
  {
    id: 'cai', email: '', city: 'Paris', appVersion: '', osVersion: '16.0', revenue: 50, conversions: 1, birthday: '2000-03-16',
    firstPurchaseAt: '2026-03-12T10:00:00Z', lastPurchaseAt: '2026-03-12T10:00:00Z',
    devices: [
      { os: 'Android', osVersion: '13', model: 'Galaxy', pushToken: null, pushEnabled: true },
      { os: 'iOS', osVersion: '16.0', model: 'iPad', pushToken: 'tok-cai', pushEnabled: null },
    ],
    events: [{ name: 'gd_transaction', time: '2026-03-12T10:00:00Z', properties: { product_id: 'sku-1', price: 50 }, revenue: 50 }],
    tags: {
      [PLAN]: { value: '', updatedAt: '2025-01-01T10:00:00Z' },
      [SCORE]: { value: null, updatedAt: '2026-03-15T01:00:00Z' },
      [RENEWAL]: { value: '2025-03-15', updatedAt: '2026-01-01T10:00:00Z' },
    },
    audiences: [AUDIENCE_X],
  },
  {
    id: 'eve', email: 'eve@shop.io', country: 'DE', appVersion: '2.0', osVersion: '15.1', sdkVersion: '2.0.0', registeredAt: '2026-03-15T11:00:00Z',
    devices: [{ os: null, pushToken: '', pushEnabled: true }],
  },
  // Merged into ana: matches much of what ana matches, and is never selected.
  {
    id: 'dan', mergedInto: 'ana', country: 'ES', email: 'Ana@Example.com', birthday: '1990-03-15', revenue: 500,
    devices: [{ os: 'iOS', pushToken: 'tok-dan', pushEnabled: true }],
    events: [{ name: 'purchase_done', time: '2026-03-14T10:00:00Z', properties: { plan: 'gold' } }],
    interactions: [{ channel: 'push', kind: 'click', time: '2026-03-15T09:05:00Z', campaignId: 'c1', journeyId: 'j1' }],
    tags: { [PLAN]: { value: 'gold', updatedAt: '2026-03-15T10:00:00Z' } },
    audiences: [AUDIENCE_X],
  },
];

const single = (condition: Partial<SegmentCondition>): Segment => {
  const root = createGroupNode('root');
  root.children.push('c1');
  return { rootKey: 'root', nodes: [root, createConditionNode('c1', condition)] };
};
const c = (type: SegmentCondition['type'], id: string, condition: SegmentOperator, extra: Partial<SegmentCondition> = {}): Partial<SegmentCondition> =>
  ({ type, id, condition, ...extra });
const range = (startDay: string, endDay: string) => ({ dateRange: { startDay, endDay } });
const selected = (segment: Segment, people: readonly EvalPerson[] = PEOPLE, context = ctx()) => {
  const result = evaluateSegment(segment, people, context);
  if (!result.ok) throw new Error(`does not evaluate: ${JSON.stringify(result.problems)}`);
  return [...result.ids].sort();
};
const daysAgo = (day: string) => Math.round((Date.UTC(2026, 2, 15) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);

const CASES: [string, Partial<SegmentCondition>, string[]][] = [
  ['country equals (any case)', c('attribute', 'country', 'equals', { input: 'es' }), ['ana']],
  ['country not_equals a list (unset included)', c('attribute', 'country', 'not_equals', { multiSelect: ['ES', 'FR'] }), ['cai', 'eve']],
  ['country contains', c('attribute', 'country', 'contains', { input: 'r' }), ['ben']],
  ['city is_not_set: NULL and empty', c('attribute', 'city', 'is_not_set'), ['ben', 'eve']],
  ['email contains (any case)', c('attribute', 'email', 'contains', { input: 'EXAMPLE' }), ['ana']],
  ['campaign attributed (any install)', c('attribute', 'campaign', 'attributed', { multiSelect: ['summer'] }), ['ana']],
  ['source not_equals', c('attribute', 'source', 'not_equals', { input: 'organic' }), ['ana', 'cai', 'eve']],
  ['app_version greater_than, part by part', c('attribute', 'app_version', 'greater_than', { input: '1.9.10' }), ['ana', 'eve']],
  ['app_version minor_than', c('attribute', 'app_version', 'minor_than', { input: '1.10' }), ['ben']],
  ['app_version is_not_set', c('attribute', 'app_version', 'is_not_set'), ['cai']],
  ['sdk_version contains', c('attribute', 'sdk_version', 'contains', { input: '2.' }), ['ana', 'eve']],
  ['last_login was_ago 0 (today)', c('attribute', 'last_login', 'was_ago', { dateDays: 0 }), ['ana']],
  ['last_login was_more_than 30', c('attribute', 'last_login', 'was_more_than', { dateDays: 30 }), ['ben']],
  ['last_login was_not_less_than 7', c('attribute', 'last_login', 'was_not_less_than', { dateDays: 7 }), ['ben', 'cai', 'eve']],
  ['registered was_not_on a range', c('attribute', 'registered', 'was_not_on', range('2026-03-01', '2026-03-14')), ['cai', 'eve']],
  ['registered greater_than a day', c('attribute', 'registered', 'greater_than', { input: '2026-03-14' }), ['eve']],
  ['install anniversary_is today', c('attribute', 'install', 'anniversary_is', { input: 0 }), ['ana']],
  ['first_session (earliest session) was_on', c('attribute', 'first_session', 'was_on', range('2026-03-01', '2026-03-01')), ['ana']],
  ['birthday anniversary_is tomorrow', c('attribute', 'birthday', 'anniversary_is', { input: 1 }), ['cai']],
  ['Feb 29 birthday on Feb 28 of a non-leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2027-02-28' }), ['ben']],
  ['Feb 29 birthday not on Feb 28 of a leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2028-02-28' }), []],
  ['Feb 29 birthday on Feb 29 of a leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2028-02-29' }), ['ben']],
  ['birthday not_equals', c('attribute', 'birthday', 'not_equals', { input: '1990-03-15' }), ['ben', 'cai', 'eve']],
  ['birthday was_more_than N', c('attribute', 'birthday', 'was_more_than', { dateDays: daysAgo('2000-03-16') }), ['ana', 'ben']],
  ['birthday was_less_than N', c('attribute', 'birthday', 'was_less_than', { dateDays: daysAgo('1992-02-29') }), ['cai']],
  ['birthday will_be_in (past days never)', c('attribute', 'birthday', 'will_be_in', { dateDays: 1 }), []],
  ['push_active is_true', c('attribute', 'push_active', 'is_true'), ['ana']],
  ['push_open is_false', c('attribute', 'push_open', 'is_false'), ['ben', 'cai', 'eve']],
  ['push_over_limit greater_than', c('attribute', 'push_over_limit', 'greater_than', { input: 3 }), ['ben']],
  ['push_over_limit minor_than', c('attribute', 'push_over_limit', 'minor_than', { input: 1 }), ['cai', 'eve']],
  ['push_over_limit not_equals', c('attribute', 'push_over_limit', 'not_equals', { input: '2' }), ['ben', 'cai', 'eve']],
  ['audience in_audience', c('attribute', 'audience', 'in_audience', { multiSelect: [AUDIENCE_X] }), ['ana', 'cai']],
  ['audience not_in_audience', c('attribute', 'audience', 'not_in_audience', { multiSelect: [AUDIENCE_X] }), ['ben', 'eve']],
  ['journey not_clicked', c('attribute', 'journey', 'not_clicked', { multiSelect: ['j1'] }), ['ben', 'cai', 'eve']],
  ['journey engaged', c('attribute', 'journey', 'engaged'), ['ana']],
  ['filter_campaign push sent', c('filter_campaign', 'push', 'sent', { input: 'c1' }), ['ana', 'ben']],
  ['filter_campaign email sent in a range', c('filter_campaign', 'email', 'sent', { input: 'c2', ...range('2026-03-10', '2026-03-10') }), ['ben']],
  ['filter_campaign push not_sent', c('filter_campaign', 'push', 'not_sent', { input: 'c1' }), ['cai', 'eve']],
  ['device os not_equals', c('device_os', 'os', 'not_equals', { input: 'ios' }), ['ben', 'eve']],
  ['device os is_not_set', c('device_os', 'os', 'is_not_set'), ['eve']],
  ['device os_version minor_than', c('device_os', 'os_version', 'minor_than', { input: '16.5' }), ['ben', 'cai']],
  ['event was_made in the last 7 days', c('user_event', 'purchase_done', 'was_made', { dateDays: 7 }), ['ana']],
  ['event more_than in a window', c('user_event', 'purchase_done', 'more_than', { input: 1, dateDays: 30 }), ['ana']],
  ['event less_than 1 (never)', c('user_event', 'purchase_done', 'less_than', { input: 1 }), ['cai', 'eve']],
  ['event was_not_on', c('user_event', 'purchase_done', 'was_not_on', range('2026-02-03', '2026-02-03')), ['ana', 'cai', 'eve']],
  ['event was_less_than', c('user_event', 'purchase_done', 'was_less_than', { dateDays: 7 }), ['ana']],
  ['event with_property not_equals (on the property)', c('user_event', 'purchase_done/plan', 'with_property', { tagCondition: 'not_equals', input: 'gold' }), ['ana']],
  ['event with_property greater_than (numbers and numeric text)', c('user_event', 'purchase_done/amount', 'with_property', { tagCondition: 'greater_than', input: 10 }), ['ana']],
  ['aevent with_property', c('aevent', 'e_screen_name/screen', 'with_property', { tagCondition: 'equals', input: 'home' }), ['ana']],
  ['event property is_false (missing counts)', c('user_event_tag', 'purchase_done/paid', 'is_false'), ['ana', 'ben']],
  ['event property array contains', c('user_event_tag', 'purchase_done/tags', 'contains', { input: 'B' }), ['ana']],
  ['product equals one of an array', c('user_product_tag', 'product_id', 'equals', { input: 'SKU-3' }), ['ana']],
  ['product equals in the last 7 days', c('user_product_tag', 'product_id', 'equals', { input: 'sku-1', dateDays: 7 }), ['cai']],
  ['purchase property minor_than', c('user_product_tag', 'price', 'minor_than', { input: 60 }), ['ana', 'cai']],
  ['purchase property is_not_set', c('user_product_tag', 'coupon', 'is_not_set'), ['ana', 'cai']],
  ['revenue not_equals', c('user_purchase_tag', 'revenue', 'not_equals', { input: 0 }), ['ana', 'cai']],
  ['revenue in the last 7 days', c('user_purchase_tag', 'revenue', 'greater_than', { input: 40, dateDays: 7 }), ['cai']],
  ['purchases in a range', c('user_purchase_tag', 'conversions', 'equals', { input: 2, ...range('2026-03-01', '2026-03-31') }), ['ana']],
  ['impressions less_than', c('inapp_impressions', '*', 'less_than', { input: 2 }), ['ben', 'cai', 'eve']],
  ['impressions was_more_than', c('inapp_impressions', '*', 'was_more_than', { dateDays: 7 }), ['ben']],
  ['clicks of another message', c('inapp_clicks', 'm2', 'was_made'), []],
  ['clicks was_more_than 0 (before today)', c('inapp_clicks', '*', 'was_more_than', { dateDays: 0 }), ['ana']],
  ['text tag not_equals', c('user_tag', PLAN, 'not_equals', { input: 'gold' }), ['ben', 'cai', 'eve']],
  ['text tag is_not_set: empty and missing', c('user_tag', PLAN, 'is_not_set'), ['cai', 'eve']],
  ['text tag with_property not_equals', c('user_tag', PLAN, 'with_property', { tagCondition: 'not_equals', input: 'silver' }), ['ana', 'cai', 'eve']],
  ['text tag changed_value (today)', c('user_tag', PLAN, 'changed_value'), ['ana']],
  ['number tag equals', c('user_tag', SCORE, 'equals', { input: '3.5' }), ['ben']],
  ['number tag is_not_set: null value and missing', c('user_tag', SCORE, 'is_not_set'), ['cai', 'eve']],
  ['number tag changed_value on a day', c('user_tag', SCORE, 'changed_value', range('2026-03-15', '2026-03-15')), ['ana', 'cai']],
  ['date tag will_be_in', c('user_tag', RENEWAL, 'will_be_in', { dateDays: 3 }), ['ana']],
  ['date tag anniversary_is', c('user_tag', RENEWAL, 'anniversary_is', { input: 0 }), ['cai']],
  ['date tag was_less_than (not the future)', c('user_tag', RENEWAL, 'was_less_than', { dateDays: 7 }), ['ben']],
  ['date tag minor_than', c('user_tag', RENEWAL, 'minor_than', { input: '2026-03-15' }), ['ben', 'cai']],
  ['date tag with_property will_be_in', c('user_tag', RENEWAL, 'with_property', { tagCondition: 'will_be_in', dateDays: 3 }), ['ana']],
];

describe('every kind of condition, as the SQL answers it', () => {
  it.each(CASES)('%s', (_label, condition, expected) => {
    expect(selected(single(condition))).toEqual(expected);
  });

  it('combines and/or groups; an empty group is ignored; an empty segment selects all but merged people', () => {
    const root = createGroupNode('root', 'and');
    const either = createGroupNode('either', 'or');
    root.children.push('either', 'empty', 'push');
    either.children.push('es', 'fr');
    const segment = {
      rootKey: 'root',
      nodes: [root, either, createGroupNode('empty', 'or'),
        createConditionNode('es', c('attribute', 'country', 'equals', { input: 'ES' })),
        createConditionNode('fr', c('attribute', 'country', 'equals', { input: 'FR' })),
        createConditionNode('push', c('attribute', 'push_active', 'is_false'))],
    };
    expect(selected(segment)).toEqual(['ben']);
    expect(selected({ rootKey: 'root', nodes: [createGroupNode('root')] })).toEqual(['ana', 'ben', 'cai', 'eve']);
  });
});

describe('days in the app time zone', () => {
  it('reads instants as local days, and "today" as the local day of now', () => {
    // 2026-03-14 23:30 and 2026-03-15 00:30 in New York (summer time from 2026-03-08).
    const people: EvalPerson[] = [{ id: 'late', lastLoginAt: '2026-03-15T03:30:00Z' }, { id: 'early', lastLoginAt: '2026-03-15T04:30:00Z' }];
    const ny = ctx({ timezone: 'America/New_York' });
    expect(selected(single(c('attribute', 'last_login', 'was_ago', { dateDays: 0 })), people, ny)).toEqual(['early']);
    expect(selected(single(c('attribute', 'last_login', 'was_ago', { dateDays: 1 })), people, ny)).toEqual(['late']);
    // Kiritimati (UTC+14): at 12:00 UTC it is already the 16th, and both logins were on the 15th.
    const ki = ctx({ timezone: 'Pacific/Kiritimati' });
    expect(selected(single(c('attribute', 'last_login', 'was_ago', { dateDays: 0 })), people, ki)).toEqual([]);
    expect(selected(single(c('attribute', 'last_login', 'was_ago', { dateDays: 1 })), people, ki)).toEqual(['early', 'late']);
    expect(localDay('2026-03-15T10:00:00Z', 'Pacific/Kiritimati') - localDay('2026-03-15T10:00:00Z', 'UTC')).toBe(1);
  });
});

describe('problems, as the compiler reports them', () => {
  const problems = (condition: Partial<SegmentCondition>, context = ctx()) => {
    const result = evaluateSegment(single(condition), PEOPLE, context);
    return result.ok ? [] : result.problems.map((p) => `${p.error} ${p.code} ${p.path.join('.')}`);
  };
  it('refuses what does not evaluate', () => {
    expect(problems(c('attribute', 'country', 'was_made'))).toEqual(['AudienceNotValid operator_not_applicable condition']);
    expect(problems(c('user_tag', '4f6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d15', 'is_set'))).toEqual(['AudienceNotValid unknown_target id']);
    expect(problems(c('unsupported', 'anything', 'is_set'))).toEqual(['AudienceNotValid unsupported type']);
    expect(problems(c('user_tag', SCORE, 'greater_than', { input: 'lots' }))).toEqual(['AudienceNotValid value_invalid input']);
    expect(problems(c('attribute', 'registered', 'was_on'))).toEqual(['AudienceNotValid date_range_missing dateRange']);
    expect(problems(c('attribute', 'audience', 'in_audience', { input: '5f6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d16' }))).toEqual(['AudienceNotExist audience_not_exist input']);
    expect(problems(c('attribute', 'audience', 'in_audience', { input: AUDIENCE_X }), ctx({ selfAudienceId: AUDIENCE_X }))).toEqual(['AudienceNotValid self_reference input']);
    expect(problems({})).toEqual(['AudienceNotValid type_missing type', 'AudienceNotValid id_missing id', 'AudienceNotValid condition_missing condition']);
  });
  it('refuses text Postgres cannot store', () => {
    expect(problems(c('attribute', 'country', 'equals', { input: 'E\u0000S' }))).toEqual(['AudienceNotValid value_invalid input']);
    expect(problems(c('attribute', 'country', 'equals', { multiSelect: ['\ud800'] }))).toEqual(['AudienceNotValid value_invalid multiSelect']);
    expect(problems(c('inapp_clicks', 'm\u0000', 'was_made'))).toEqual(['AudienceNotValid value_invalid id']);
  });
  it('reports a broken tree alone', () => {
    const root = createGroupNode('root');
    root.children.push('missing');
    const result = evaluateSegment({ rootKey: 'root', nodes: [root] }, PEOPLE, ctx());
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(['dangling_child']);
  });
});

describe('values', () => {
  it('compares decimals exactly', () => {
    const cmp = (a: string, b: string) => compareDecimal(parseDecimal(a)!, parseDecimal(b)!);
    expect(cmp('0.30000000000000000000000001', '0.3')).toBe(1);
    expect(cmp('1e+21', '1000000000000000000000')).toBe(0);
    expect(cmp('-0', '0')).toBe(0);
    expect(cmp('-1.5', '-1.25')).toBe(-1);
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(1.5e-7)).toBe('0.00000015');
    expect(plainDecimal(-0.5)).toBe('-0.5');
  });
  it('lowers one character at a time', () => {
    expect(lowerText('ÉÑΣAİ')).toBe('éñσai');
    expect(lowerText('ΑΣ')).toBe('ασ');
  });
  it('writes JSON text as jsonb does', () => {
    expect(jsonText('x')).toBe('x');
    expect(jsonText(12.5)).toBe('12.5');
    expect(jsonText(1e21)).toBe('1000000000000000000000');
    expect(jsonText(true)).toBe('true');
    expect(jsonText(null)).toBeNull();
    expect(jsonText(['a', 1, null, [true]])).toBe('["a", 1, null, [true]]');
    expect(jsonText({ bb: 1, a: 'x', c: { d: null } })).toBe('{"a": "x", "c": {"d": null}, "bb": 1}');
  });
  it('orders versions part by part', () => {
    expect(versionKey(' 1.10.x2 ')).toEqual([1, 10, 0]);
    expect(versionKey('  ')).toBeNull();
    expect(compareVersions(versionKey('1.10')!, versionKey('1.9')!)).toBe(1);
    expect(compareVersions(versionKey('1.10')!, versionKey('1.10.0')!)).toBe(-1);
  });
});

describe('found by the differential test', () => {
  it('a typed number is used as it is, whatever its spelling (1e21, 1e-7)', () => {
    const people: EvalPerson[] = [{ id: 'big', revenue: 0, tags: { [SCORE]: { value: 1e21, updatedAt: '2026-03-15T10:00:00Z' } } }];
    expect(selected(single(c('user_tag', SCORE, 'equals', { input: 1e21 })), people)).toEqual(['big']);
    expect(selected(single(c('user_tag', SCORE, 'not_equals', { input: 1e-7 })), people)).toEqual(['big']);
  });
  it('the selections come before the typed input, for numbers as for text', () => {
    const people: EvalPerson[] = [{ id: 'seven', tags: { [SCORE]: { value: 7, updatedAt: '2026-03-15T10:00:00Z' } } }];
    expect(selected(single(c('user_tag', SCORE, 'equals', { input: 5, multiSelect: ['7'] })), people)).toEqual(['seven']);
    expect(selected(single(c('user_tag', SCORE, 'greater_than', { input: 8, multiSelect: ['6'] })), people)).toEqual(['seven']);
  });
  it("an array property's equals compares its elements, never its own JSON text", () => {
    const people: EvalPerson[] = [{ id: 'arr', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z', properties: { tags: ['a', 'b'] } }] }];
    expect(selected(single(c('user_event_tag', 'buy/tags', 'equals', { input: '["a", "b"]' })), people)).toEqual([]);
    expect(selected(single(c('user_event_tag', 'buy/tags', 'equals', { input: 'A' })), people)).toEqual(['arr']);
  });
  it('counts beyond any real number of rows', () => {
    const people: EvalPerson[] = [{ id: 'one', events: [{ name: 'buy', time: '2026-03-15T10:00:00Z' }] }];
    expect(selected(single(c('user_event', 'buy', 'more_than', { input: 1e20 })), people)).toEqual([]);
    expect(selected(single(c('user_event', 'buy', 'less_than', { input: 1e20 })), people)).toEqual(['one']);
  });
});
