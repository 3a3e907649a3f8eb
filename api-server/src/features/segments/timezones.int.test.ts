/**
 * Relative dates are calendar days in the app's time zone: events at 23:30 and 00:30 local around
 * a day boundary, in America/New_York (UTC-4 in summer time, -5 before 2026-03-08) and
 * Pacific/Kiritimati (UTC+14, whose "today" is the UTC day after), across the summer-time change,
 * and with "now" on either side of local midnight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { SegmentCondition, SegmentOperator } from '@gd/shared';
import { createPool, type Db } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { seeder, selected, single } from './testing/data.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
let api: TestApi;
let db: Db;
let newYork: string;
let kiritimati: string;

const c = (type: SegmentCondition['type'], id: string, condition: SegmentOperator, extra: Partial<SegmentCondition> = {}) =>
  single({ type, id, condition, ...extra });
const on = (day: string) => ({ dateRange: { startDay: day, endDay: day } });

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 2);
  const owner = await registerAccount(api);
  newYork = (await createTestApp(owner.client, { timezone: 'America/New_York' })).id;
  kiritimati = (await createTestApp(owner.client, { timezone: 'Pacific/Kiritimati' })).id;
  await db.query(`SELECT gd_ensure_month_partitions('2025-01-01', '2026-12-31')`);

  const ny = seeder(db, newYork);
  // 2026-03-14 23:30 EDT, 2026-03-15 00:30 EDT.
  const ny1 = await ny.person({ customer_id: 'ny1', last_login_at: '2026-03-15T03:30:00Z', registered_at: '2025-03-15T03:30:00Z' });
  const ny2 = await ny.person({ customer_id: 'ny2', last_login_at: '2026-03-15T04:30:00Z' });
  await ny.event(ny1, 'visit', '2026-03-15T03:30:00Z');
  await ny.event(ny2, 'visit', '2026-03-15T04:30:00Z');
  // Summer time starts 2026-03-08: 23:59 EDT on the 8th and 00:00 EDT on the 9th.
  const ny3 = await ny.person({ customer_id: 'ny3' });
  const ny4 = await ny.person({ customer_id: 'ny4' });
  await ny.event(ny3, 'visit', '2026-03-09T03:59:00Z');
  await ny.event(ny4, 'visit', '2026-03-09T04:00:00Z');

  const ki = seeder(db, kiritimati);
  // 2026-03-15 23:30 and 2026-03-16 00:30 in Kiritimati; "now" is 2026-03-16 02:00 there.
  const ki1 = await ki.person({ customer_id: 'ki1', birthday: '2000-03-15' });
  const ki2 = await ki.person({ customer_id: 'ki2', birthday: '2000-03-16' });
  await ki.event(ki1, 'visit', '2026-03-15T09:30:00Z');
  await ki.event(ki2, 'visit', '2026-03-15T10:30:00Z');
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

describe('America/New_York', () => {
  it('23:30 local is yesterday even when it is today in UTC', async () => {
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_ago', { dateDays: 1 }), NOW)).toEqual(['ny1']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_ago', { dateDays: 0 }), NOW)).toEqual(['ny2']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_on', on('2026-03-14')), NOW)).toEqual(['ny1']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_made', { dateDays: 1 }), NOW)).toEqual(['ny2']);
    expect(await selected(db, newYork, c('attribute', 'last_login', 'was_ago', { dateDays: 1 }), NOW)).toEqual(['ny1']);
  });

  it('anniversaries use the local day of an instant', async () => {
    expect(await selected(db, newYork, c('attribute', 'registered', 'anniversary_is', { input: 0 }), NOW)).toEqual([]);
    expect(await selected(db, newYork, c('attribute', 'registered', 'anniversary_is', { input: '2026-03-14' }), NOW)).toEqual(['ny1']);
  });

  it('days across the summer-time change keep their local midnights', async () => {
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_on', on('2026-03-08')), NOW)).toEqual(['ny3']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_on', on('2026-03-09')), NOW)).toEqual(['ny4']);
  });

  it('"today" turns at local midnight', async () => {
    const beforeMidnight = new Date('2026-03-16T03:59:00Z'); // 23:59 EDT on the 15th
    const afterMidnight = new Date('2026-03-16T04:00:00Z'); // 00:00 EDT on the 16th
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_ago', { dateDays: 1 }), beforeMidnight)).toEqual(['ny1']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_ago', { dateDays: 1 }), afterMidnight)).toEqual(['ny2']);
    expect(await selected(db, newYork, c('user_event', 'visit', 'was_ago', { dateDays: 2 }), afterMidnight)).toEqual(['ny1']);
  });
});

describe('Pacific/Kiritimati (UTC+14)', () => {
  it('today is the UTC day after', async () => {
    expect(await selected(db, kiritimati, c('user_event', 'visit', 'was_ago', { dateDays: 1 }), NOW)).toEqual(['ki1']);
    expect(await selected(db, kiritimati, c('user_event', 'visit', 'was_ago', { dateDays: 0 }), NOW)).toEqual(['ki2']);
    expect(await selected(db, kiritimati, c('user_event', 'visit', 'was_on', on('2026-03-16')), NOW)).toEqual(['ki2']);
    expect(await selected(db, kiritimati, c('user_event', 'visit', 'was_less_than', { dateDays: 1 }), NOW)).toEqual(['ki2']);
    expect(await selected(db, kiritimati, c('user_event', 'visit', 'was_more_than', { dateDays: 0 }), NOW)).toEqual(['ki1']);
  });

  it('birthdays are today by the local calendar', async () => {
    expect(await selected(db, kiritimati, c('attribute', 'birthday', 'anniversary_is', { input: 0 }), NOW)).toEqual(['ki2']);
  });
});
