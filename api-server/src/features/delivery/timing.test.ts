import { describe, expect, it } from 'vitest';
import { afterQuietHours, earliestSendAt, localDay, sendTimeFor, zoneOf, nextOccurrence, occurrenceLocal, scheduleOfRun } from './timing.ts';

const NOW = new Date('2026-11-30T12:00:00Z');
const none = { frequencyCap: null, quietHours: null };

describe('send times', () => {
  it('sends now at once, whatever the zone', () => {
    expect(sendTimeFor({ schedule: { kind: 'now' }, delivery: none, personZone: 'Asia/Tokyo', appZone: 'UTC', now: NOW })).toEqual(NOW);
  });

  it('places "09:00 device local time" at 09:00 in each person\'s zone (waves), and the app\'s zone for people without one', () => {
    const schedule = { kind: 'at', at: '2026-12-01T09:00', basis: 'deviceLocal' } as const;
    const at = (personZone: string | null) => sendTimeFor({ schedule, delivery: none, personZone, appZone: 'Europe/Madrid', now: NOW }).toISOString();
    expect(at('Asia/Tokyo')).toBe('2026-12-01T00:00:00.000Z');
    expect(at('Europe/Madrid')).toBe('2026-12-01T08:00:00.000Z');
    expect(at('America/New_York')).toBe('2026-12-01T14:00:00.000Z');
    expect(at(null)).toBe('2026-12-01T08:00:00.000Z');
    expect(at('Not/AZone')).toBe('2026-12-01T08:00:00.000Z');
    // The run starts resolving when the first zone gets there.
    expect(earliestSendAt(schedule, 'Europe/Madrid', NOW).toISOString()).toBe('2026-11-30T19:00:00.000Z');
  });

  it('reads the user-time-zone basis in the app\'s zone for everyone', () => {
    const schedule = { kind: 'at', at: '2026-12-01T09:00', basis: 'userTimezone' } as const;
    expect(sendTimeFor({ schedule, delivery: none, personZone: 'Asia/Tokyo', appZone: 'America/Bogota', now: NOW }).toISOString()).toBe('2026-12-01T14:00:00.000Z');
  });

  it('sends a time already past for some zone at once', () => {
    const schedule = { kind: 'at', at: '2026-11-30T09:00', basis: 'deviceLocal' } as const;
    expect(sendTimeFor({ schedule, delivery: none, personZone: 'Asia/Tokyo', appZone: 'UTC', now: NOW })).toEqual(NOW);
  });

  it('holds a send inside quiet hours until they end on the person\'s clock, also across midnight', () => {
    const quiet = { from: '22:00', to: '08:00' };
    // 23:30 in Madrid (22:30Z): held to 08:00 the next day, Madrid time.
    expect(afterQuietHours(new Date('2026-11-30T22:30:00Z'), 'Europe/Madrid', quiet).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    // 03:00 in Madrid: held to 08:00 the same day.
    expect(afterQuietHours(new Date('2026-12-01T02:00:00Z'), 'Europe/Madrid', quiet).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    // 12:00 in Madrid: not held.
    expect(afterQuietHours(new Date('2026-12-01T11:00:00Z'), 'Europe/Madrid', quiet).toISOString()).toBe('2026-12-01T11:00:00.000Z');
    // A window within one day.
    expect(afterQuietHours(new Date('2026-12-01T13:30:00Z'), 'UTC', { from: '13:00', to: '15:00' }).toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(afterQuietHours(new Date('2026-12-01T15:00:00Z'), 'UTC', { from: '13:00', to: '15:00' }).toISOString()).toBe('2026-12-01T15:00:00.000Z');
  });

  it('names the person\'s local day and zone', () => {
    expect(localDay(new Date('2026-11-30T23:30:00Z'), 'Europe/Madrid')).toBe('2026-12-01');
    expect(localDay(new Date('2026-11-30T23:30:00Z'), 'America/Bogota')).toBe('2026-11-30');
    expect(zoneOf('europe/madrid', 'UTC')).toBe('Europe/Madrid');
  });
});

describe('recurring schedules', () => {
  const recurring = (frequency: 'daily' | 'weekly' | 'monthly', startsAt: string, endsAt: string | null = null) =>
    ({ kind: 'recurring', startsAt, basis: 'userTimezone', frequency, endsAt } as const);

  it('places each occurrence a day, a week or a month after the first, at the same clock time', () => {
    expect([0, 1, 2].map((n) => occurrenceLocal(recurring('daily', '2026-12-30T09:00'), n))).toEqual(['2026-12-30T09:00', '2026-12-31T09:00', '2027-01-01T09:00']);
    expect([0, 1, 2].map((n) => occurrenceLocal(recurring('weekly', '2026-12-24T18:30'), n))).toEqual(['2026-12-24T18:30', '2026-12-31T18:30', '2027-01-07T18:30']);
  });

  it('keeps a monthly day of the month, or the last day of a shorter month', () => {
    expect([0, 1, 2, 3, 13].map((n) => occurrenceLocal(recurring('monthly', '2027-01-31T08:00'), n)))
      .toEqual(['2027-01-31T08:00', '2027-02-28T08:00', '2027-03-31T08:00', '2027-04-30T08:00', '2028-02-29T08:00']);
  });

  it('ends after its end', () => {
    const s = recurring('daily', '2026-12-01T09:00', '2026-12-03T09:00');
    expect(occurrenceLocal(s, 2)).toBe('2026-12-03T09:00');
    expect(occurrenceLocal(s, 3)).toBeNull();
    expect(nextOccurrence(s, 2, 'UTC', new Date('2026-12-03T10:00:00Z'))).toBeNull();
  });

  it('names the next occurrence and when its run starts, skipping those that passed while paused', () => {
    const s = recurring('daily', '2026-12-01T09:00');
    // In Madrid (UTC+1) 09:00 is 08:00 UTC.
    expect(nextOccurrence(s, 0, 'Europe/Madrid', new Date('2026-12-01T08:05:00Z'))).toEqual({ occurrence: 1, notBefore: new Date('2026-12-02T08:00:00Z') });
    // Paused over five days: the next is the first still ahead.
    expect(nextOccurrence(s, 0, 'Europe/Madrid', new Date('2026-12-06T12:00:00Z'))).toEqual({ occurrence: 6, notBefore: new Date('2026-12-07T08:00:00Z') });
    // A device-local send starts when 09:00 reaches the first zone on Earth (UTC+14), and is still due until it reaches the last (UTC-12).
    const local = { ...s, basis: 'deviceLocal' } as const;
    expect(nextOccurrence(local, 0, 'UTC', new Date('2026-12-02T20:00:00Z'))).toEqual({ occurrence: 1, notBefore: new Date('2026-12-01T19:00:00Z') });
    expect(scheduleOfRun(local, 3)).toEqual({ kind: 'at', at: '2026-12-04T09:00', basis: 'deviceLocal' });
    expect(scheduleOfRun({ kind: 'now' }, 3)).toEqual({ kind: 'now' });
  });
});
