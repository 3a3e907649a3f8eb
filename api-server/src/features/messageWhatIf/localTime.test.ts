import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, instantOf } from './localTime.ts';

describe('instantOf', () => {
  it('reads a wall-clock time in the zone, winter and summer', () => {
    expect(instantOf('2026-12-01T09:00', 'Europe/Madrid').toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(instantOf('2026-07-01T09:00', 'Europe/Madrid').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'America/New_York').toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'Asia/Kolkata').toISOString()).toBe('2026-12-01T03:30:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'UTC').toISOString()).toBe('2026-12-01T09:00:00.000Z');
  });

  it('settles the offset of the day itself around a DST change', () => {
    // Madrid moves to summer time at 02:00 on 2026-03-29: 09:00 that day is already UTC+2.
    expect(instantOf('2026-03-29T09:00', 'Europe/Madrid').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(instantOf('2026-03-29T01:00', 'Europe/Madrid').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    // A skipped time lands on a real instant next to the gap.
    expect(['2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z']).toContain(instantOf('2026-03-29T02:30', 'Europe/Madrid').toISOString());
  });

  it('refuses a name that is no zone', () => {
    expect(() => instantOf('2026-12-01T09:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('canonicalTimeZone', () => {
  it('answers the canonical spelling, or null for no zone', () => {
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('Europe/Madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
    expect(canonicalTimeZone('x'.repeat(100))).toBeNull();
  });
});
