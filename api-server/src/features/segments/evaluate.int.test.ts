/**
 * The segment engine against real Postgres: every operator with every filter kind it applies to,
 * on a small data set with known answers (empty values, merged people, time zone edges included).
 * "Now" is fixed at 2026-03-15 12:00 UTC; the main app's time zone is UTC, so today is 2026-03-15.
 *
 * People: ana (active buyer), ben (lapsed, organic, leap-day birthday), cai (empty strings, no
 * login), eve (almost nothing), dan (merged into ana: never selected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  SegmentAttribute, SegmentFilterKind, attributeTarget, conditionTarget, createConditionNode, createGroupNode, tagTarget,
  type SegmentCondition, type SegmentOperator,
} from '@gd/shared';
import { createPool, type Db } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { compileFor } from './definition.ts';
import { seeder, selected, single } from './testing/data.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
let api: TestApi;
let db: Db;
let appId: string;
let audienceX: string;
const tags: Record<'plan' | 'score' | 'renewal', string> = { plan: '', score: '', renewal: '' };

const daysAgo = (day: string) => Math.round((Date.UTC(2026, 2, 15) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 2);
  const owner = await registerAccount(api);
  appId = (await createTestApp(owner.client, { timezone: 'UTC' })).id;
  await db.query(`SELECT gd_ensure_month_partitions('2025-01-01', '2026-12-31')`);
  const s = seeder(db, appId);

  const ana = await s.person({
    customer_id: 'ana', email: 'Ana@Example.com', country: 'ES', state: 'Madrid', city: 'Madrid', app_version: '1.10.0', os_version: '17.2',
    sdk_version: '2.1.0', from_source: 'facebook', from_campaign: 'spring', install_at: '2025-03-15T10:00:00Z', registered_at: '2026-03-14T08:00:00Z',
    first_login_at: '2026-03-14T10:00:00Z', last_login_at: '2026-03-15T09:00:00Z', last_session_at: '2026-03-10T10:00:00Z',
    first_purchase_at: '2026-01-10T10:00:00Z', last_purchase_at: '2026-03-14T10:00:00Z', revenue: 120, conversions: 3, birthday: '1990-03-15',
  });
  const ben = await s.person({
    customer_id: 'ben', country: 'FR', city: '', app_version: '1.9.5', sdk_version: '1.0', from_source: 'Organic', install_at: '2026-02-01T10:00:00Z',
    registered_at: '2026-03-01T12:00:00Z', first_login_at: '2026-02-01T10:00:00Z', last_login_at: '2026-02-01T10:00:00Z',
    last_session_at: '2026-02-01T10:00:00Z', birthday: '1992-02-29',
  });
  const cai = await s.person({
    customer_id: 'cai', email: '', city: 'Paris', app_version: '', os_version: '16.0', revenue: 50, conversions: 1, birthday: '2000-03-16',
    first_purchase_at: '2026-03-12T10:00:00Z', last_purchase_at: '2026-03-12T10:00:00Z',
  });
  const eve = await s.person({ customer_id: 'eve', email: 'eve@shop.io', country: 'DE', app_version: '2.0', os_version: '15.1', sdk_version: '2.0.0', registered_at: '2026-03-15T11:00:00Z' });
  // Merged into ana: matches much of what ana matches, and must never be selected.
  const dan = await s.person({ customer_id: 'dan', country: 'ES', email: 'Ana@Example.com', merged_into: ana, birthday: '1990-03-15', revenue: 500 });

  await s.device(ana, { key: 'dev-ana', os: 'iOS', os_version: '17.2', model: 'iPhone15', push_token: 'tok-ana', push_enabled: true });
  await s.device(ben, { key: 'dev-ben', os: 'Android', os_version: '14', model: 'Pixel', push_token: 'tok-ben', push_enabled: false });
  await s.device(cai, { key: 'dev-cai-1', os: 'Android', os_version: '13', model: 'Galaxy', push_token: null, push_enabled: true });
  await s.device(cai, { key: 'dev-cai-2', os: 'iOS', os_version: '16.0', model: 'iPad', push_token: 'tok-cai', push_enabled: null });
  await s.device(eve, { key: 'dev-eve', os: null, push_token: '', push_enabled: true });
  await s.device(dan, { key: 'dev-dan', os: 'iOS', push_token: 'tok-dan', push_enabled: true });

  await s.event(ana, 'purchase_done', '2026-03-14T10:00:00Z', { plan: 'Gold', amount: 30, tags: ['a', 'b'], paid: true });
  await s.event(ana, 'purchase_done', '2026-03-10T10:00:00Z', { plan: 'silver', amount: '12.5' });
  await s.event(ana, 'gd_transaction', '2026-03-01T10:00:00Z', { product_id: 'sku-1', price: 100 }, 100);
  await s.event(ana, 'gd_transaction', '2026-03-14T10:00:00Z', { product_id: ['sku-2', 'sku-3'], price: 20 }, 20);
  await s.event(ana, 'e_screen_name', '2026-03-15T08:00:00Z', { screen: 'Home' });
  await s.event(ana, 'gd_login', '2026-03-15T09:00:00Z');
  for (const day of ['01', '02', '03']) await s.event(ben, 'purchase_done', `2026-02-${day}T10:00:00Z`, { plan: 'gold', amount: 5 });
  await s.event(ben, 'e_screen_name', '2026-03-14T10:00:00Z', { screen: 'Cart' });
  await s.event(cai, 'gd_transaction', '2026-03-12T10:00:00Z', { product_id: 'sku-1', price: 50 }, 50);
  await s.event(dan, 'purchase_done', '2026-03-14T10:00:00Z', { plan: 'gold' });

  await s.session(ana, '2026-03-01T10:00:00Z');
  await s.session(ana, '2026-03-10T10:00:00Z');
  await s.session(ben, '2026-02-01T10:00:00Z');
  await s.lifecycle(ana, 'install', '2025-03-15T10:00:00Z', 'facebook', 'spring');
  await s.lifecycle(ana, 'reinstall', '2026-03-01T10:00:00Z', 'google', 'summer');
  await s.lifecycle(ben, 'install', '2026-02-01T10:00:00Z', 'Organic', null);

  await s.interaction(ana, 'inapp', 'impression', '2026-03-14T10:00:00Z', { message: 'm1' });
  await s.interaction(ana, 'inapp', 'impression', '2026-03-14T11:00:00Z', { message: 'm1' });
  await s.interaction(ana, 'inapp', 'click', '2026-03-14T11:00:01Z', { message: 'm1' });
  await s.interaction(ana, 'push', 'impression', '2026-03-15T08:00:00Z', { campaign: 'c1', journey: 'j1', message: 'p1' });
  await s.interaction(ana, 'push', 'impression', '2026-03-15T09:00:00Z', { campaign: 'c1', journey: 'j1', message: 'p1' });
  await s.interaction(ana, 'push', 'click', '2026-03-15T09:05:00Z', { campaign: 'c1', journey: 'j1', message: 'p1' });
  await s.interaction(ben, 'inapp', 'impression', '2026-03-01T10:00:00Z', { message: 'm2' });
  await s.interaction(ben, 'email', 'impression', '2026-03-10T10:00:00Z', { campaign: 'c2' });
  for (const hour of ['01', '02', '03', '04']) await s.interaction(ben, 'push', 'impression', `2026-03-15T${hour}:00:00Z`, { campaign: 'c1' });
  await s.interaction(dan, 'push', 'click', '2026-03-15T09:05:00Z', { campaign: 'c1', journey: 'j1' });

  tags.plan = await s.tag('plan', 'text');
  tags.score = await s.tag('score', 'number');
  tags.renewal = await s.tag('renewal', 'date');
  await s.tagValue(ana, tags.plan, { text: 'Gold' }, '2026-03-15T10:00:00Z');
  await s.tagValue(ben, tags.plan, { text: 'silver' }, '2026-03-01T10:00:00Z');
  await s.tagValue(cai, tags.plan, { text: '' }, '2025-01-01T10:00:00Z');
  await s.tagValue(dan, tags.plan, { text: 'gold' }, '2026-03-15T10:00:00Z');
  await s.tagValue(ana, tags.score, { number: 10 }, '2026-03-15T10:00:00Z');
  await s.tagValue(ben, tags.score, { number: 3.5 }, '2026-03-01T10:00:00Z');
  await s.tagValue(cai, tags.score, { number: null }, '2026-03-15T01:00:00Z');
  await s.tagValue(ana, tags.renewal, { date: '2026-03-18' }, '2026-03-15T10:00:00Z');
  await s.tagValue(ben, tags.renewal, { date: '2026-03-10' }, '2026-01-01T10:00:00Z');
  await s.tagValue(cai, tags.renewal, { date: '2025-03-15' }, '2026-01-01T10:00:00Z');

  audienceX = await s.audience(owner.accountId, 'X', [ana, cai, dan]);
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

const c = (type: SegmentCondition['type'], id: string, condition: SegmentOperator, extra: Partial<SegmentCondition> = {}): Partial<SegmentCondition> =>
  ({ type, id, condition, ...extra });
const range = (startDay: string, endDay: string) => ({ dateRange: { startDay, endDay } });

/** Cases whose id is only known once the data exists (tags, audiences) give a function. */
type LazyCase = [label: string, condition: Partial<SegmentCondition> | (() => Partial<SegmentCondition>), expected: string[]];

const ALL = ['ana', 'ben', 'cai', 'eve'];
const CASES: LazyCase[] = [
  // attribute: text
  ['country equals (any case)', c('attribute', 'country', 'equals', { input: 'es' }), ['ana']],
  ['country not_equals a list (unset included)', c('attribute', 'country', 'not_equals', { multiSelect: ['ES', 'FR'] }), ['cai', 'eve']],
  ['country contains', c('attribute', 'country', 'contains', { input: 'r' }), ['ben']],
  ['country is_set', c('attribute', 'country', 'is_set'), ['ana', 'ben', 'eve']],
  ['country is_not_set', c('attribute', 'country', 'is_not_set'), ['cai']],
  ['city is_not_set: NULL and empty', c('attribute', 'city', 'is_not_set'), ['ben', 'eve']],
  ['city equals', c('attribute', 'city', 'equals', { input: 'paris' }), ['cai']],
  ['state equals', c('attribute', 'state', 'equals', { input: 'MADRID' }), ['ana']],
  ['email contains (any case)', c('attribute', 'email', 'contains', { input: 'EXAMPLE' }), ['ana']],
  ['email is_not_set: NULL and empty', c('attribute', 'email', 'is_not_set'), ['ben', 'cai']],
  ['campaign equals', c('attribute', 'campaign', 'equals', { input: 'SPRING' }), ['ana']],
  ['campaign attributed (any install, not only the first)', c('attribute', 'campaign', 'attributed', { multiSelect: ['summer'] }), ['ana']],
  ['source equals', c('attribute', 'source', 'equals', { input: 'organic' }), ['ben']],
  ['source attributed', c('attribute', 'source', 'attributed', { input: 'google' }), ['ana']],
  ['source not_equals', c('attribute', 'source', 'not_equals', { input: 'organic' }), ['ana', 'cai', 'eve']],
  // attribute: version
  ['app_version greater_than, part by part', c('attribute', 'app_version', 'greater_than', { input: '1.9.10' }), ['ana', 'eve']],
  ['app_version minor_than', c('attribute', 'app_version', 'minor_than', { input: '1.10' }), ['ben']],
  ['app_version equals', c('attribute', 'app_version', 'equals', { input: '1.10.0' }), ['ana']],
  ['app_version is_set', c('attribute', 'app_version', 'is_set'), ['ana', 'ben', 'eve']],
  ['app_version is_not_set', c('attribute', 'app_version', 'is_not_set'), ['cai']],
  ['os_version greater_than', c('attribute', 'os_version', 'greater_than', { input: '16.0' }), ['ana']],
  ['os_version not_equals', c('attribute', 'os_version', 'not_equals', { input: '17.2' }), ['ben', 'cai', 'eve']],
  ['sdk_version contains', c('attribute', 'sdk_version', 'contains', { input: '2.' }), ['ana', 'eve']],
  // attribute: instants
  ['last_login was_ago 0 (today)', c('attribute', 'last_login', 'was_ago', { dateDays: 0 }), ['ana']],
  ['last_login was_not_ago 0', c('attribute', 'last_login', 'was_not_ago', { dateDays: 0 }), ['ben', 'cai', 'eve']],
  ['last_login was_more_than 30', c('attribute', 'last_login', 'was_more_than', { dateDays: 30 }), ['ben']],
  ['last_login was_not_more_than 30', c('attribute', 'last_login', 'was_not_more_than', { dateDays: 30 }), ['ana', 'cai', 'eve']],
  ['last_login was_less_than 7', c('attribute', 'last_login', 'was_less_than', { dateDays: 7 }), ['ana']],
  ['last_login was_not_less_than 7', c('attribute', 'last_login', 'was_not_less_than', { dateDays: 7 }), ['ben', 'cai', 'eve']],
  ['registered was_on one day', c('attribute', 'registered', 'was_on', range('2026-03-01', '2026-03-01')), ['ben']],
  ['registered was_not_on a range', c('attribute', 'registered', 'was_not_on', range('2026-03-01', '2026-03-14')), ['cai', 'eve']],
  ['registered was_ago 1 (yesterday)', c('attribute', 'registered', 'was_ago', { dateDays: 1 }), ['ana']],
  ['registered greater_than a day', c('attribute', 'registered', 'greater_than', { input: '2026-03-14' }), ['eve']],
  ['registered minor_than a day', c('attribute', 'registered', 'minor_than', { input: '2026-03-14' }), ['ben']],
  ['registered is_set', c('attribute', 'registered', 'is_set'), ['ana', 'ben', 'eve']],
  ['registered is_not_set', c('attribute', 'registered', 'is_not_set'), ['cai']],
  ['install anniversary_is today', c('attribute', 'install', 'anniversary_is', { input: 0 }), ['ana']],
  ['first_login was_ago 1', c('attribute', 'first_login', 'was_ago', { dateDays: 1 }), ['ana']],
  ['first_purchase was_on January', c('attribute', 'first_purchase', 'was_on', range('2026-01-01', '2026-01-31')), ['ana']],
  ['last_purchase was_less_than 7', c('attribute', 'last_purchase', 'was_less_than', { dateDays: 7 }), ['ana', 'cai']],
  ['first_session (earliest session) was_on', c('attribute', 'first_session', 'was_on', range('2026-03-01', '2026-03-01')), ['ana']],
  ['last_session was_more_than 30', c('attribute', 'last_session', 'was_more_than', { dateDays: 30 }), ['ben']],
  // attribute: day (birthday)
  ['birthday anniversary_is today', c('attribute', 'birthday', 'anniversary_is', { input: 0 }), ['ana']],
  ['birthday anniversary_is tomorrow', c('attribute', 'birthday', 'anniversary_is', { input: 1 }), ['cai']],
  ['Feb 29 birthday on Feb 28 of a non-leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2027-02-28' }), ['ben']],
  ['Feb 29 birthday not on Feb 28 of a leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2028-02-28' }), []],
  ['Feb 29 birthday on Feb 29 of a leap year', c('attribute', 'birthday', 'anniversary_is', { input: '2028-02-29' }), ['ben']],
  ['birthday equals', c('attribute', 'birthday', 'equals', { input: '1990-03-15' }), ['ana']],
  ['birthday not_equals', c('attribute', 'birthday', 'not_equals', { input: '1990-03-15' }), ['ben', 'cai', 'eve']],
  ['birthday greater_than', c('attribute', 'birthday', 'greater_than', { input: '1995-01-01' }), ['cai']],
  ['birthday minor_than', c('attribute', 'birthday', 'minor_than', { input: '1991-01-01' }), ['ana']],
  ['birthday was_on', c('attribute', 'birthday', 'was_on', range('1992-02-29', '1992-02-29')), ['ben']],
  ['birthday was_not_on', c('attribute', 'birthday', 'was_not_on', range('1992-02-29', '1992-02-29')), ['ana', 'cai', 'eve']],
  ['birthday was_ago N', c('attribute', 'birthday', 'was_ago', { dateDays: daysAgo('2000-03-16') }), ['cai']],
  ['birthday was_not_ago N', c('attribute', 'birthday', 'was_not_ago', { dateDays: daysAgo('2000-03-16') }), ['ana', 'ben', 'eve']],
  ['birthday was_more_than N', c('attribute', 'birthday', 'was_more_than', { dateDays: daysAgo('2000-03-16') }), ['ana', 'ben']],
  ['birthday was_not_more_than N', c('attribute', 'birthday', 'was_not_more_than', { dateDays: daysAgo('2000-03-16') }), ['cai', 'eve']],
  ['birthday was_less_than N', c('attribute', 'birthday', 'was_less_than', { dateDays: daysAgo('1992-02-29') }), ['cai']],
  ['birthday was_not_less_than N', c('attribute', 'birthday', 'was_not_less_than', { dateDays: daysAgo('1992-02-29') }), ['ana', 'ben', 'eve']],
  ['birthday will_be_in (past days never)', c('attribute', 'birthday', 'will_be_in', { dateDays: 1 }), []],
  ['birthday is_set', c('attribute', 'birthday', 'is_set'), ['ana', 'ben', 'cai']],
  ['birthday is_not_set', c('attribute', 'birthday', 'is_not_set'), ['eve']],
  // attribute: booleans
  ['push_active is_true: a token and push enabled', c('attribute', 'push_active', 'is_true'), ['ana']],
  ['push_active is_false', c('attribute', 'push_active', 'is_false'), ['ben', 'cai', 'eve']],
  ['push_open is_true', c('attribute', 'push_open', 'is_true'), ['ana']],
  ['push_open is_false', c('attribute', 'push_open', 'is_false'), ['ben', 'cai', 'eve']],
  // attribute: counts (pushes received today)
  ['push_over_limit greater_than', c('attribute', 'push_over_limit', 'greater_than', { input: 3 }), ['ben']],
  ['push_over_limit more_than', c('attribute', 'push_over_limit', 'more_than', { input: 1 }), ['ana', 'ben']],
  ['push_over_limit minor_than', c('attribute', 'push_over_limit', 'minor_than', { input: 1 }), ['cai', 'eve']],
  ['push_over_limit less_than', c('attribute', 'push_over_limit', 'less_than', { input: 3 }), ['ana', 'cai', 'eve']],
  ['push_over_limit equals', c('attribute', 'push_over_limit', 'equals', { input: 2 }), ['ana']],
  ['push_over_limit not_equals', c('attribute', 'push_over_limit', 'not_equals', { input: '2' }), ['ben', 'cai', 'eve']],
  // attribute: audiences and messages
  ['audience in_audience', () => c('attribute', 'audience', 'in_audience', { multiSelect: [audienceX] }), ['ana', 'cai']],
  ['audience not_in_audience', () => c('attribute', 'audience', 'not_in_audience', { multiSelect: [audienceX] }), ['ben', 'eve']],
  ['journey sent', c('attribute', 'journey', 'sent', { multiSelect: ['j1'] }), ['ana']],
  ['journey not_sent', c('attribute', 'journey', 'not_sent', { multiSelect: ['j1'] }), ['ben', 'cai', 'eve']],
  ['journey clicked', c('attribute', 'journey', 'clicked', { multiSelect: ['j1'] }), ['ana']],
  ['journey not_clicked', c('attribute', 'journey', 'not_clicked', { multiSelect: ['j1'] }), ['ben', 'cai', 'eve']],
  ['journey engaged', c('attribute', 'journey', 'engaged'), ['ana']],
  ['filter_campaign push sent', c('filter_campaign', 'push', 'sent', { input: 'c1' }), ['ana', 'ben']],
  ['filter_campaign email sent in a range', c('filter_campaign', 'email', 'sent', { input: 'c2', ...range('2026-03-10', '2026-03-10') }), ['ben']],
  ['filter_campaign any clicked', c('filter_campaign', 'any', 'clicked', { input: 'c1' }), ['ana']],
  ['filter_campaign push not_clicked', c('filter_campaign', 'push', 'not_clicked', { input: 'c1' }), ['ben', 'cai', 'eve']],
  ['filter_campaign push not_sent', c('filter_campaign', 'push', 'not_sent', { input: 'c1' }), ['cai', 'eve']],
  ['filter_campaign any engaged', c('filter_campaign', 'any', 'engaged'), ['ana']],
  // device_os: any of the person's devices
  ['device os equals', c('device_os', 'os', 'equals', { input: 'ios' }), ['ana', 'cai']],
  ['device os not_equals', c('device_os', 'os', 'not_equals', { input: 'ios' }), ['ben', 'eve']],
  ['device os contains', c('device_os', 'os', 'contains', { input: 'andr' }), ['ben', 'cai']],
  ['device os is_set', c('device_os', 'os', 'is_set'), ['ana', 'ben', 'cai']],
  ['device os is_not_set', c('device_os', 'os', 'is_not_set'), ['eve']],
  ['device os_version greater_than', c('device_os', 'os_version', 'greater_than', { input: '16.5' }), ['ana']],
  ['device os_version minor_than', c('device_os', 'os_version', 'minor_than', { input: '16.5' }), ['ben', 'cai']],
  ['device model equals', c('device_os', 'model', 'equals', { input: 'ipad' }), ['cai']],
  // events
  ['event was_made', c('user_event', 'purchase_done', 'was_made'), ['ana', 'ben']],
  ['event was_not_made', c('user_event', 'purchase_done', 'was_not_made'), ['cai', 'eve']],
  ['event was_made in the last 7 days', c('user_event', 'purchase_done', 'was_made', { dateDays: 7 }), ['ana']],
  ['event was_made in a range', c('user_event', 'purchase_done', 'was_made', range('2026-02-02', '2026-02-02')), ['ben']],
  ['event was_not_made in the last 7 days', c('user_event', 'purchase_done', 'was_not_made', { dateDays: 7 }), ['ben', 'cai', 'eve']],
  ['event more_than', c('user_event', 'purchase_done', 'more_than', { input: 2 }), ['ben']],
  ['event more_than in a window', c('user_event', 'purchase_done', 'more_than', { input: 1, dateDays: 30 }), ['ana']],
  ['event less_than', c('user_event', 'purchase_done', 'less_than', { input: 3 }), ['ana', 'cai', 'eve']],
  ['event less_than 1 (never)', c('user_event', 'purchase_done', 'less_than', { input: 1 }), ['cai', 'eve']],
  ['event was_on', c('user_event', 'purchase_done', 'was_on', range('2026-02-03', '2026-02-03')), ['ben']],
  ['event was_not_on', c('user_event', 'purchase_done', 'was_not_on', range('2026-02-03', '2026-02-03')), ['ana', 'cai', 'eve']],
  ['event was_ago', c('user_event', 'purchase_done', 'was_ago', { dateDays: 1 }), ['ana']],
  ['event was_not_ago', c('user_event', 'purchase_done', 'was_not_ago', { dateDays: 1 }), ['ben', 'cai', 'eve']],
  ['event was_more_than', c('user_event', 'purchase_done', 'was_more_than', { dateDays: 30 }), ['ben']],
  ['event was_not_more_than', c('user_event', 'purchase_done', 'was_not_more_than', { dateDays: 30 }), ['ana', 'cai', 'eve']],
  ['event was_less_than', c('user_event', 'purchase_done', 'was_less_than', { dateDays: 7 }), ['ana']],
  ['event was_not_less_than', c('user_event', 'purchase_done', 'was_not_less_than', { dateDays: 7 }), ['ben', 'cai', 'eve']],
  ['event with_property equals', c('user_event', 'purchase_done/plan', 'with_property', { tagCondition: 'equals', input: 'gold' }), ['ana', 'ben']],
  ['event with_property in a window', c('user_event', 'purchase_done/plan', 'with_property', { tagCondition: 'equals', input: 'gold', dateDays: 7 }), ['ana']],
  ['event with_property not_equals (on the property)', c('user_event', 'purchase_done/plan', 'with_property', { tagCondition: 'not_equals', input: 'gold' }), ['ana']],
  ['event with_property greater_than (numbers and numeric text)', c('user_event', 'purchase_done/amount', 'with_property', { tagCondition: 'greater_than', input: 10 }), ['ana']],
  ['aevent was_made', c('aevent', 'gd_login', 'was_made'), ['ana']],
  ['aevent was_ago', c('aevent', 'e_screen_name', 'was_ago', { dateDays: 1 }), ['ben']],
  ['aevent with_property', c('aevent', 'e_screen_name/screen', 'with_property', { tagCondition: 'equals', input: 'home' }), ['ana']],
  // event and purchase properties
  ['event property equals', c('user_event_tag', 'e_screen_name/screen', 'equals', { input: 'cart' }), ['ben']],
  ['event property not_equals', c('user_event_tag', 'e_screen_name/screen', 'not_equals', { input: 'cart' }), ['ana']],
  ['event property contains', c('user_event_tag', 'e_screen_name/screen', 'contains', { input: 'O' }), ['ana']],
  ['event property greater_than', c('user_event_tag', 'purchase_done/amount', 'greater_than', { input: 20 }), ['ana']],
  ['event property minor_than', c('user_event_tag', 'purchase_done/amount', 'minor_than', { input: 6 }), ['ben']],
  ['event property is_true', c('user_event_tag', 'purchase_done/paid', 'is_true'), ['ana']],
  ['event property is_false (missing counts)', c('user_event_tag', 'purchase_done/paid', 'is_false'), ['ana', 'ben']],
  ['event property is_set', c('user_event_tag', 'purchase_done/plan', 'is_set'), ['ana', 'ben']],
  ['event property is_not_set', c('user_event_tag', 'purchase_done/paid', 'is_not_set'), ['ana', 'ben']],
  ['event property array contains', c('user_event_tag', 'purchase_done/tags', 'contains', { input: 'B' }), ['ana']],
  ['event property array equals an element', c('user_event_tag', 'purchase_done/tags', 'equals', { input: 'a' }), ['ana']],
  ['product equals', c('user_product_tag', 'product_id', 'equals', { input: 'sku-1' }), ['ana', 'cai']],
  ['product equals one of an array', c('user_product_tag', 'product_id', 'equals', { input: 'SKU-3' }), ['ana']],
  ['product equals in the last 7 days', c('user_product_tag', 'product_id', 'equals', { input: 'sku-1', dateDays: 7 }), ['cai']],
  ['product not_equals', c('user_product_tag', 'product_id', 'not_equals', { input: 'sku-1' }), ['ana']],
  ['product contains', c('user_product_tag', 'product_id', 'contains', { input: '3' }), ['ana']],
  ['purchase property greater_than', c('user_product_tag', 'price', 'greater_than', { input: 60 }), ['ana']],
  ['purchase property minor_than', c('user_product_tag', 'price', 'minor_than', { input: 60 }), ['ana', 'cai']],
  ['purchase property is_set', c('user_product_tag', 'product_id', 'is_set'), ['ana', 'cai']],
  ['purchase property is_not_set', c('user_product_tag', 'coupon', 'is_not_set'), ['ana', 'cai']],
  ['purchase property is_true', c('user_product_tag', 'gift', 'is_true'), []],
  ['purchase property is_false', c('user_product_tag', 'gift', 'is_false'), ['ana', 'cai']],
  // purchases: lifetime totals, or a window of purchase events
  ['revenue greater_than', c('user_purchase_tag', 'revenue', 'greater_than', { input: 100 }), ['ana']],
  ['revenue equals', c('user_purchase_tag', 'revenue', 'equals', { input: 50 }), ['cai']],
  ['revenue not_equals', c('user_purchase_tag', 'revenue', 'not_equals', { input: 0 }), ['ana', 'cai']],
  ['revenue minor_than', c('user_purchase_tag', 'revenue', 'minor_than', { input: 1 }), ['ben', 'eve']],
  ['conversions more_than', c('user_purchase_tag', 'conversions', 'more_than', { input: 2 }), ['ana']],
  ['conversions less_than', c('user_purchase_tag', 'conversions', 'less_than', { input: 1 }), ['ben', 'eve']],
  ['revenue in the last 7 days', c('user_purchase_tag', 'revenue', 'greater_than', { input: 40, dateDays: 7 }), ['cai']],
  ['purchases in a range', c('user_purchase_tag', 'conversions', 'equals', { input: 2, ...range('2026-03-01', '2026-03-31') }), ['ana']],
  // in-app impressions and clicks
  ['impressions of a message was_made', c('inapp_impressions', 'm1', 'was_made'), ['ana']],
  ['impressions of any message was_made', c('inapp_impressions', '*', 'was_made'), ['ana', 'ben']],
  ['impressions was_not_made', c('inapp_impressions', '*', 'was_not_made'), ['cai', 'eve']],
  ['impressions more_than', c('inapp_impressions', 'm1', 'more_than', { input: 1 }), ['ana']],
  ['impressions less_than', c('inapp_impressions', '*', 'less_than', { input: 2 }), ['ben', 'cai', 'eve']],
  ['impressions was_on', c('inapp_impressions', '*', 'was_on', range('2026-03-01', '2026-03-01')), ['ben']],
  ['impressions was_not_on', c('inapp_impressions', '*', 'was_not_on', range('2026-03-01', '2026-03-01')), ['ana', 'cai', 'eve']],
  ['impressions was_ago', c('inapp_impressions', '*', 'was_ago', { dateDays: 1 }), ['ana']],
  ['impressions was_not_ago', c('inapp_impressions', '*', 'was_not_ago', { dateDays: 1 }), ['ben', 'cai', 'eve']],
  ['impressions was_more_than', c('inapp_impressions', '*', 'was_more_than', { dateDays: 7 }), ['ben']],
  ['impressions was_not_more_than', c('inapp_impressions', '*', 'was_not_more_than', { dateDays: 7 }), ['ana', 'cai', 'eve']],
  ['impressions was_less_than', c('inapp_impressions', '*', 'was_less_than', { dateDays: 7 }), ['ana']],
  ['impressions was_not_less_than', c('inapp_impressions', '*', 'was_not_less_than', { dateDays: 7 }), ['ben', 'cai', 'eve']],
  ['clicks was_made', c('inapp_clicks', '*', 'was_made'), ['ana']],
  ['clicks of another message', c('inapp_clicks', 'm2', 'was_made'), []],
  ['clicks was_not_made', c('inapp_clicks', 'm1', 'was_not_made'), ['ben', 'cai', 'eve']],
  ['clicks more_than 0', c('inapp_clicks', 'm1', 'more_than', { input: 0 }), ['ana']],
  ['clicks less_than 1', c('inapp_clicks', 'm1', 'less_than', { input: 1 }), ['ben', 'cai', 'eve']],
  ['clicks was_less_than 1 (today only)', c('inapp_clicks', '*', 'was_less_than', { dateDays: 1 }), []],
  ['clicks was_more_than 0 (before today)', c('inapp_clicks', '*', 'was_more_than', { dateDays: 0 }), ['ana']],
  // user tags: text
  ['text tag equals (any case)', () => c('user_tag', tags.plan, 'equals', { input: 'gold' }), ['ana']],
  ['text tag not_equals', () => c('user_tag', tags.plan, 'not_equals', { input: 'gold' }), ['ben', 'cai', 'eve']],
  ['text tag contains', () => c('user_tag', tags.plan, 'contains', { input: 'IL' }), ['ben']],
  ['text tag is_set', () => c('user_tag', tags.plan, 'is_set'), ['ana', 'ben']],
  ['text tag is_not_set: empty and missing', () => c('user_tag', tags.plan, 'is_not_set'), ['cai', 'eve']],
  ['text tag with_property equals', () => c('user_tag', tags.plan, 'with_property', { tagCondition: 'equals', input: 'silver' }), ['ben']],
  ['text tag with_property not_equals', () => c('user_tag', tags.plan, 'with_property', { tagCondition: 'not_equals', input: 'silver' }), ['ana', 'cai', 'eve']],
  ['text tag changed_value (today)', () => c('user_tag', tags.plan, 'changed_value'), ['ana']],
  ['text tag changed_value in 30 days', () => c('user_tag', tags.plan, 'changed_value', { dateDays: 30 }), ['ana', 'ben']],
  // user tags: number
  ['number tag equals', () => c('user_tag', tags.score, 'equals', { input: '3.5' }), ['ben']],
  ['number tag not_equals', () => c('user_tag', tags.score, 'not_equals', { input: 3.5 }), ['ana', 'cai', 'eve']],
  ['number tag greater_than', () => c('user_tag', tags.score, 'greater_than', { input: 5 }), ['ana']],
  ['number tag minor_than', () => c('user_tag', tags.score, 'minor_than', { input: 5 }), ['ben']],
  ['number tag more_than', () => c('user_tag', tags.score, 'more_than', { input: 3 }), ['ana', 'ben']],
  ['number tag less_than', () => c('user_tag', tags.score, 'less_than', { input: 10 }), ['ben']],
  ['number tag is_set', () => c('user_tag', tags.score, 'is_set'), ['ana', 'ben']],
  ['number tag is_not_set: null value and missing', () => c('user_tag', tags.score, 'is_not_set'), ['cai', 'eve']],
  ['number tag with_property', () => c('user_tag', tags.score, 'with_property', { tagCondition: 'greater_than', input: 5 }), ['ana']],
  ['number tag changed_value on a day', () => c('user_tag', tags.score, 'changed_value', range('2026-03-15', '2026-03-15')), ['ana', 'cai']],
  // user tags: date
  ['date tag will_be_in', () => c('user_tag', tags.renewal, 'will_be_in', { dateDays: 3 }), ['ana']],
  ['date tag was_ago', () => c('user_tag', tags.renewal, 'was_ago', { dateDays: 5 }), ['ben']],
  ['date tag was_not_ago', () => c('user_tag', tags.renewal, 'was_not_ago', { dateDays: 5 }), ['ana', 'cai', 'eve']],
  ['date tag anniversary_is', () => c('user_tag', tags.renewal, 'anniversary_is', { input: 0 }), ['cai']],
  ['date tag was_on', () => c('user_tag', tags.renewal, 'was_on', range('2026-03-01', '2026-03-31')), ['ana', 'ben']],
  ['date tag was_not_on', () => c('user_tag', tags.renewal, 'was_not_on', range('2026-03-01', '2026-03-31')), ['cai', 'eve']],
  ['date tag was_more_than', () => c('user_tag', tags.renewal, 'was_more_than', { dateDays: 30 }), ['cai']],
  ['date tag was_not_more_than', () => c('user_tag', tags.renewal, 'was_not_more_than', { dateDays: 30 }), ['ana', 'ben', 'eve']],
  ['date tag was_less_than (not the future)', () => c('user_tag', tags.renewal, 'was_less_than', { dateDays: 7 }), ['ben']],
  ['date tag was_not_less_than', () => c('user_tag', tags.renewal, 'was_not_less_than', { dateDays: 7 }), ['ana', 'cai', 'eve']],
  ['date tag greater_than', () => c('user_tag', tags.renewal, 'greater_than', { input: '2026-03-15' }), ['ana']],
  ['date tag minor_than', () => c('user_tag', tags.renewal, 'minor_than', { input: '2026-03-15' }), ['ben', 'cai']],
  ['date tag equals', () => c('user_tag', tags.renewal, 'equals', { input: '2026-03-10' }), ['ben']],
  ['date tag not_equals', () => c('user_tag', tags.renewal, 'not_equals', { input: '2026-03-10' }), ['ana', 'cai', 'eve']],
  ['date tag is_set', () => c('user_tag', tags.renewal, 'is_set'), ['ana', 'ben', 'cai']],
  ['date tag is_not_set', () => c('user_tag', tags.renewal, 'is_not_set'), ['eve']],
  ['date tag with_property will_be_in', () => c('user_tag', tags.renewal, 'with_property', { tagCondition: 'will_be_in', dateDays: 3 }), ['ana']],
  ['date tag changed_value', () => c('user_tag', tags.renewal, 'changed_value'), ['ana']],
];

describe('every operator with every filter kind', () => {
  it.each(CASES)('%s', async (_label, condition, expected) => {
    const resolved = typeof condition === 'function' ? condition() : condition;
    expect(await selected(db, appId, single(resolved), NOW)).toEqual(expected);
  });

  it('the cases cover every operator of every filter kind and every attribute', () => {
    const group = (type: string, id: string) => {
      if (type === 'attribute') return `attribute:${attributeTarget(id as SegmentAttribute).valueType}`;
      if (type === 'user_tag') return `user_tag:${Object.entries(tags).find(([, tagId]) => tagId === id)?.[0] ?? '?'}`;
      if (type === 'aevent' || type === 'user_event') return 'event';
      if (type === 'inapp_impressions' || type === 'inapp_clicks') return 'inapp';
      if (type === 'user_event_tag' || type === 'user_product_tag') return 'property';
      return type;
    };
    const covered = new Set<string>();
    const kinds = new Set<string>();
    const attributes = new Set<string>();
    for (const [, condition] of CASES) {
      const cond = typeof condition === 'function' ? condition() : condition;
      covered.add(`${group(cond.type!, cond.id!)} ${cond.condition}`);
      kinds.add(cond.type!);
      if (cond.type === 'attribute') attributes.add(cond.id!);
    }
    const required = new Set<string>();
    for (const a of SegmentAttribute.options) for (const op of attributeTarget(a).operators) required.add(`${group('attribute', a)} ${op}`);
    for (const [name, vt] of [['plan', 'text'], ['score', 'number'], ['renewal', 'date']] as const) for (const op of tagTarget(vt).operators) required.add(`user_tag:${name} ${op}`);
    const samples: [string, string][] = [
      ['user_event', 'x'], ['user_event', 'x/y'], ['inapp_impressions', 'm'], ['user_event_tag', 'x/y'], ['user_product_tag', 'y'],
      ['user_purchase_tag', 'revenue'], ['filter_campaign', 'push'], ['device_os', 'os'], ['device_os', 'os_version'],
    ];
    for (const [type, id] of samples) {
      for (const op of conditionTarget(type as SegmentFilterKind, id, () => undefined)!.operators) required.add(`${group(type, id)} ${op}`);
    }
    expect([...required].filter((r) => !covered.has(r))).toEqual([]);
    expect(SegmentFilterKind.options.filter((k) => !kinds.has(k) && k !== 'unsupported')).toEqual([]);
    expect(SegmentAttribute.options.filter((a) => !attributes.has(a))).toEqual([]);
  });
});

describe('groups, empty segments and merged people', () => {
  it('combines and/or groups; an empty group is ignored', async () => {
    const root = createGroupNode('root', 'and');
    const either = createGroupNode('either', 'or');
    const empty = createGroupNode('empty', 'or');
    root.children.push('either', 'empty', 'push');
    either.children.push('es', 'fr');
    const segment = {
      rootKey: 'root',
      nodes: [root, either, empty,
        createConditionNode('es', c('attribute', 'country', 'equals', { input: 'ES' })),
        createConditionNode('fr', c('attribute', 'country', 'equals', { input: 'FR' })),
        createConditionNode('push', c('attribute', 'push_active', 'is_false'))],
    };
    expect(await selected(db, appId, segment, NOW)).toEqual(['ben']);
  });

  it('an empty segment selects every person but merged ones', async () => {
    expect(await selected(db, appId, { rootKey: 'root', nodes: [createGroupNode('root')] }, NOW)).toEqual(ALL);
  });

  it('values never reach the SQL text', async () => {
    const hostile = `x'); DROP TABLE people; --`;
    const segment = single(c('attribute', 'email', 'equals', { input: hostile }));
    const compiled = await compileFor(db, segment, { appId, now: NOW, requireConditions: false });
    expect(compiled.ok && compiled.value.sql.includes('DROP')).toBe(false);
    expect(await selected(db, appId, segment, NOW)).toEqual([]);
    expect(await selected(db, appId, single(c('attribute', 'email', 'is_set')), NOW)).toEqual(['ana', 'eve']);
  });
});

describe('problems', () => {
  const problems = async (condition: Partial<SegmentCondition>) => {
    const compiled = await compileFor(db, single(condition), { appId, now: NOW, requireConditions: true });
    return compiled.ok ? [] : compiled.problems.map((p) => `${p.error} ${p.code}`);
  };
  it('refuses what does not evaluate, with the audience error name', async () => {
    expect(await problems(c('attribute', 'country', 'was_made'))).toEqual(['AudienceNotValid operator_not_applicable']);
    expect(await problems(c('user_tag', crypto.randomUUID(), 'is_set'))).toEqual(['AudienceNotValid unknown_target']);
    expect(await problems(c('attribute', 'nickname', 'is_set'))).toEqual(['AudienceNotValid unknown_target']);
    expect(await problems(c('aevent', 'purchase_done', 'was_made'))).toEqual(['AudienceNotValid unknown_target']);
    expect(await problems(c('unsupported', 'anything', 'is_set'))).toEqual(['AudienceNotValid unsupported']);
    expect(await problems(c('user_tag', tags.score, 'greater_than', { input: 'lots' }))).toEqual(['AudienceNotValid value_invalid']);
    expect(await problems(c('attribute', 'registered', 'was_on'))).toEqual(['AudienceNotValid date_range_missing']);
    expect(await problems(c('attribute', 'audience', 'in_audience', { input: crypto.randomUUID() }))).toEqual(['AudienceNotExist audience_not_exist']);
    expect(await problems({})).toEqual(['AudienceNotValid type_missing', 'AudienceNotValid id_missing', 'AudienceNotValid condition_missing']);
    const empty = await compileFor(db, { rootKey: 'root', nodes: [createGroupNode('root')] }, { appId, now: NOW, requireConditions: true });
    expect(empty.ok ? [] : empty.problems.map((p) => p.code)).toEqual(['segment_empty']);
  });

  it('an audience may not select by its own membership', async () => {
    const compiled = await compileFor(db, single(c('attribute', 'audience', 'in_audience', { input: audienceX })), { appId, now: NOW, requireConditions: true, selfAudienceId: audienceX });
    expect(compiled.ok ? [] : compiled.problems.map((p) => p.code)).toEqual(['self_reference']);
  });
});
