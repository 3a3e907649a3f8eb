/**
 * The app's calendar over the generated window: the UTC instant each local day starts at, in the
 * app's time zone (days are 23, 24 or 25 hours long around DST changes). Computed once per day
 * with Intl, so placing millions of events in local days costs no time zone lookups.
 */

const DAY_MS = 86_400_000;

/** Offset of `timezone` from UTC at instant `ms`, in milliseconds (wall clock minus UTC). */
export function offsetAt(format: Intl.DateTimeFormat, ms: number): number {
  const parts = new Map<string, number>();
  for (const p of format.formatToParts(new Date(ms))) if (p.type !== 'literal') parts.set(p.type, Number(p.value));
  const n = (type: string) => parts.get(type) ?? 0;
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

export function wallClockFormat(timezone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
}

/** The UTC instant of local midnight of `day` (YYYY-MM-DD) in the zone of `format`. */
export function localMidnight(format: Intl.DateTimeFormat, day: string): number {
  const guess = Date.parse(`${day}T00:00:00Z`);
  let t = guess - offsetAt(format, guess);
  // Around a DST change the offset at the guess differs from the one at midnight: settle it.
  for (let i = 0; i < 2; i++) t = guess - offsetAt(format, t);
  return t;
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export class LocalCalendar {
  readonly days: readonly string[];
  /** starts[i] is the start of days[i]; starts[days.length] is the end of the last day. */
  private readonly starts: Float64Array;

  constructor(timezone: string, endDay: string, dayCount: number) {
    const format = wallClockFormat(timezone);
    const first = addDays(endDay, -(dayCount - 1));
    this.days = Array.from({ length: dayCount }, (_, i) => addDays(first, i));
    this.starts = new Float64Array(dayCount + 1);
    for (let i = 0; i <= dayCount; i++) this.starts[i] = localMidnight(format, addDays(first, i));
  }

  dayStart(i: number): number {
    return this.starts[i] ?? Number.NaN;
  }

  dayLength(i: number): number {
    return this.dayStart(i + 1) - this.dayStart(i);
  }

  /** 0 = Sunday ... 6 = Saturday. */
  weekday(i: number): number {
    return new Date(`${this.days[i]}T00:00:00Z`).getUTCDay();
  }

  /** The window's last instant (exclusive). */
  get end(): number {
    return this.dayStart(this.days.length);
  }
}
