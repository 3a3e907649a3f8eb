/** The report schedule: next slots per frequency in a time zone, across DST, and relative ranges. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReportSchedule, addDays } from '@gd/shared';
import { latestDueSlot, localDay, localTime, nextSlot, rangeDays, zonedInstant } from './schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const isoWeekday = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const monthLength = (day: string) => new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate();
const schedule = (input: Record<string, unknown>) => ReportSchedule.parse(input);
/** The slots after `from`, n of them. */
function slots(s: ReportSchedule, tz: string, from: string, n: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    t = nextSlot(s, tz, t);
    out.push(iso(t));
  }
  return out;
}

describe('nextSlot', () => {
  it('hourly at a minute, strictly after the given instant', () => {
    const s = schedule({ frequency: 'hourly', minute: 15 });
    expect(slots(s, 'UTC', '2026-03-02T10:15:00Z', 3)).toEqual(['2026-03-02T11:15:00.000Z', '2026-03-02T12:15:00.000Z', '2026-03-02T13:15:00.000Z']);
    expect(slots(s, 'UTC', '2026-03-02T10:14:59Z', 1)).toEqual(['2026-03-02T10:15:00.000Z']);
    // A 30-minute offset zone: minute 15 local is minute 45 UTC.
    expect(slots(s, 'Asia/Kolkata', '2026-03-02T10:00:00Z', 2)).toEqual(['2026-03-02T10:45:00.000Z', '2026-03-02T11:45:00.000Z']);
  });

  it('every half hour at minute and minute + 30', () => {
    const s = schedule({ frequency: 'half_hour', minute: 10 });
    expect(slots(s, 'Europe/Madrid', '2026-03-02T10:00:00Z', 4)).toEqual([
      '2026-03-02T10:10:00.000Z', '2026-03-02T10:40:00.000Z', '2026-03-02T11:10:00.000Z', '2026-03-02T11:40:00.000Z',
    ]);
    expect(ReportSchedule.safeParse({ frequency: 'half_hour', minute: 30 }).success).toBe(false);
  });

  it('hourly follows real time across DST: the autumn hour twice, nothing lost or doubled otherwise', () => {
    const s = schedule({ frequency: 'hourly', minute: 0 });
    // Europe/Madrid, 2026-10-25: 03:00 CEST becomes 02:00 CET (01:00 UTC).
    const autumn = slots(s, 'Europe/Madrid', '2026-10-24T23:30:00Z', 4);
    expect(autumn).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z']);
    expect(autumn.map((t) => localTime(at(t), 'Europe/Madrid').hour)).toEqual([2, 2, 3, 4]);
    // 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC): local 02:00 never happens.
    const spring = slots(s, 'Europe/Madrid', '2026-03-28T23:30:00Z', 3);
    expect(spring).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    expect(spring.map((t) => localTime(at(t), 'Europe/Madrid').hour)).toEqual([1, 3, 4]);
  });

  it('daily keeps the wall-clock time across DST; a skipped time runs past the change, a repeated one once', () => {
    const nine = schedule({ frequency: 'daily', hour: 9, minute: 30 });
    expect(slots(nine, 'Europe/Madrid', '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T07:30:00.000Z', '2026-03-30T07:30:00.000Z']);
    expect(slots(nine, 'Europe/Madrid', '2026-03-27T12:00:00Z', 1)).toEqual(['2026-03-28T08:30:00.000Z']);
    const skipped = schedule({ frequency: 'daily', hour: 2, minute: 30 });
    const [spring] = slots(skipped, 'Europe/Madrid', '2026-03-28T12:00:00Z', 1);
    expect(spring).toBe('2026-03-29T01:30:00.000Z');
    expect(localTime(at(spring!), 'Europe/Madrid')).toMatchObject({ day: 29, hour: 3, minute: 30 });
    // 02:30 happens twice on 2026-10-25 (00:30 and 01:30 UTC): once, the first.
    expect(slots(skipped, 'Europe/Madrid', '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // New York (spring change on 2026-03-08).
    expect(slots(schedule({ frequency: 'daily', hour: 8, minute: 0 }), 'America/New_York', '2026-03-07T12:00:00Z', 3)).toEqual(['2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z']);
  });

  it('weekly on an ISO weekday', () => {
    const s = schedule({ frequency: 'weekly', weekday: 7, hour: 18, minute: 0 });
    const out = slots(s, 'Asia/Tokyo', '2026-03-02T00:00:00Z', 2);
    expect(out).toEqual(['2026-03-08T09:00:00.000Z', '2026-03-15T09:00:00.000Z']);
  });

  it('monthly on the 31st runs on each month\'s last day', () => {
    const s = schedule({ frequency: 'monthly', monthDay: 31, hour: 6, minute: 0 });
    const days = slots(s, 'Europe/Madrid', '2026-01-01T00:00:00Z', 5).map((t) => localDay(at(t), 'Europe/Madrid'));
    expect(days).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
    const leap = slots(s, 'UTC', '2028-02-01T00:00:00Z', 1);
    expect(leap).toEqual(['2028-02-29T06:00:00.000Z']);
  });

  it('the latest due slot after missed runs', () => {
    const s = schedule({ frequency: 'hourly', minute: 0 });
    expect(iso(latestDueSlot(s, 'UTC', at('2026-03-02T10:00:00Z'), at('2026-03-02T14:20:00Z')))).toBe('2026-03-02T14:00:00.000Z');
    expect(iso(latestDueSlot(s, 'UTC', at('2026-03-02T10:00:00Z'), at('2026-03-02T10:59:00Z')))).toBe('2026-03-02T10:00:00.000Z');
  });

  const ZONES = ['UTC', 'Europe/Madrid', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham'];
  it('property: the next slot is after the instant, matches the schedule, and none is skipped', () => {
    fc.assert(fc.property(
      fc.constantFrom(...ZONES),
      fc.integer({ min: at('2025-01-01T00:00:00Z'), max: at('2028-12-31T00:00:00Z') }),
      fc.record({ frequency: fc.constantFrom('hourly', 'half_hour', 'daily', 'weekly', 'monthly'), minute: fc.integer({ min: 0, max: 29 }), hour: fc.integer({ min: 0, max: 23 }), weekday: fc.integer({ min: 1, max: 7 }), monthDay: fc.integer({ min: 1, max: 31 }) }),
      (tz, after, input) => {
        const s = schedule(input);
        const next = nextSlot(s, tz, after);
        expect(next).toBeGreaterThan(after);
        const local = localTime(next, tz);
        if (s.frequency === 'hourly') {
          expect(local.minute).toBe(s.minute);
          expect(next - after).toBeLessThanOrEqual(3_600_000);
        } else if (s.frequency === 'half_hour') {
          expect([s.minute, s.minute + 30]).toContain(local.minute);
          expect(next - after).toBeLessThanOrEqual(1_800_000);
        } else {
          // The slot is the schedule's wall time, or (a skipped time) within the zone's DST shift after it.
          const planned = zonedInstant(localDay(next, tz), s.hour, s.minute, tz);
          expect(planned).toBe(next);
          // Nothing in between: no day between `after`'s and the slot's has a slot after `after`.
          for (let day = addDays(localDay(after, tz), -1); day < localDay(next, tz); day = addDays(day, 1)) {
            const t = zonedInstant(day, s.hour, s.minute, tz);
            const matches = s.frequency === 'daily' || (s.frequency === 'weekly' ? isoWeekday(day) === s.weekday : Number(day.slice(8)) === Math.min(s.monthDay, monthLength(day)));
            if (matches) expect(t).toBeLessThanOrEqual(after);
          }
        }
      },
    ), { numRuns: 300 });
  });
});

describe('rangeDays', () => {
  it('evaluates each relative range on the run\'s local day', () => {
    expect(rangeDays('today', '2026-03-04')).toEqual({ startDay: '2026-03-04', endDay: '2026-03-04' });
    expect(rangeDays('yesterday', '2026-03-01')).toEqual({ startDay: '2026-02-28', endDay: '2026-02-28' });
    expect(rangeDays('last7Days', '2026-03-04')).toEqual({ startDay: '2026-02-26', endDay: '2026-03-04' });
    expect(rangeDays('last30Days', '2026-03-04')).toEqual({ startDay: '2026-02-03', endDay: '2026-03-04' });
    // 2026-03-04 is a Wednesday: the last full week is Monday 23 to Sunday 1 March.
    expect(rangeDays('lastFullWeek', '2026-03-04')).toEqual({ startDay: '2026-02-23', endDay: '2026-03-01' });
    expect(rangeDays('lastFullWeek', '2026-03-02')).toEqual({ startDay: '2026-02-23', endDay: '2026-03-01' });
    expect(rangeDays('lastFullWeek', '2026-03-01')).toEqual({ startDay: '2026-02-16', endDay: '2026-02-22' });
    expect(rangeDays('lastFullMonth', '2026-03-31')).toEqual({ startDay: '2026-02-01', endDay: '2026-02-28' });
    expect(rangeDays('lastFullMonth', '2026-01-01')).toEqual({ startDay: '2025-12-01', endDay: '2025-12-31' });
  });
});
