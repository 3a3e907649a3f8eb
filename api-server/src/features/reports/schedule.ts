/**
 * When a scheduled report runs, and which days a run covers (pure, time zone aware through Intl).
 *
 * Slots (schemas/reports.ts ReportSchedule), in the app's time zone:
 * - hourly / half_hour: every real instant whose local minute is `minute` (and `minute`+30). They
 *   follow real time, not the wall clock: across a DST change an hourly report still runs once an
 *   hour (the repeated autumn hour runs twice, the skipped spring hour not at all, as a clock-less
 *   "every hour" would). Zones with 30- or 45-minute offsets work the same (local minute).
 * - daily / weekly / monthly: the wall-clock time `hour`:`minute` on the matching day. A wall time
 *   the spring change skips runs at the same distance past the change (02:30 → 03:30); one the
 *   autumn change repeats runs at its first occurrence only. Monthly on a day the month lacks runs
 *   on the month's last day (31 → 30 April, 28/29 February).
 *
 * A report that missed slots (the service was down) runs once, for the latest slot that is due
 * (`latestDueSlot`), not once per missed slot: the older ones' ranges are in the newer one or stale.
 *
 * Relative ranges are evaluated on the local day of the run's slot (or of "now" for Run now).
 */
import { addDays, type ReportRange, type ReportSchedule } from '@gd/shared';

const MINUTE = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalTime { year: number; month: number; day: number; hour: number; minute: number; second: number }

/** The wall-clock time of instant `t` (ms) in `timeZone`. */
export function localTime(t: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: (parts.hour ?? 0) % 24, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

/** The zone's offset from UTC at instant `t`, in minutes (local = UTC + offset). */
export function offsetMinutes(t: number, timeZone: string): number {
  const l = localTime(t, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return Math.round((asUtc - (t - (t % 1000 + 1000) % 1000)) / MINUTE);
}

/**
 * The instant of wall-clock time `day` `hour`:`minute` in `timeZone`: its first occurrence when the
 * time repeats; when the time does not exist (spring change), the instant as far past the change.
 */
export function zonedInstant(day: string, hour: number, minute: number, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  const offsets = [...new Set([offsetMinutes(wall - 86_400_000, timeZone), offsetMinutes(wall, timeZone), offsetMinutes(wall + 86_400_000, timeZone)])];
  const valid = offsets.map((o) => wall - o * MINUTE).filter((t) => offsetMinutes(t, timeZone) * MINUTE === wall - t);
  if (valid.length > 0) return Math.min(...valid);
  // A skipped wall time: the offset before the change puts it as far after the change.
  return wall - offsetMinutes(wall - 86_400_000, timeZone) * MINUTE;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The local YYYY-MM-DD of instant `t`. */
export function localDay(t: number, timeZone: string): string {
  const l = localTime(t, timeZone);
  return `${l.year}-${pad(l.month)}-${pad(l.day)}`;
}

const isoWeekday = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const daysInMonth = (day: string) => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

function dayMatches(day: string, s: ReportSchedule): boolean {
  switch (s.frequency) {
    case 'daily': return true;
    case 'weekly': return isoWeekday(day) === s.weekday;
    case 'monthly': return Number(day.slice(8, 10)) === Math.min(s.monthDay, daysInMonth(day));
    case 'hourly':
    case 'half_hour': return true;
    default: {
      const never: never = s.frequency;
      throw new Error(`unknown frequency ${String(never)}`);
    }
  }
}

/** The first slot strictly after instant `after` (ms). */
export function nextSlot(s: ReportSchedule, timeZone: string, after: number): number {
  if (s.frequency === 'hourly' || s.frequency === 'half_hour') {
    const minutes = s.frequency === 'hourly' ? [s.minute] : [s.minute, s.minute + 30];
    // Whole minutes after `after`; the local minute repeats every 60 real minutes whatever the offset.
    let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
    for (let i = 0; i <= 60; i++, t += MINUTE) {
      if (minutes.includes(localTime(t, timeZone).minute)) return t;
    }
    throw new Error('no slot within an hour');
  }
  let day = addDays(localDay(after, timeZone), -1);
  for (let i = 0; i < 800; i++, day = addDays(day, 1)) {
    if (!dayMatches(day, s)) continue;
    const t = zonedInstant(day, s.hour, s.minute, timeZone);
    if (t > after) return t;
  }
  throw new Error('no slot within two years');
}

/**
 * The latest slot at or before `now`, starting from a due slot `due` (<= now): the slot a report
 * that missed several runs records (once).
 */
export function latestDueSlot(s: ReportSchedule, timeZone: string, due: number, now: number): number {
  let slot = due;
  for (let i = 0; i < 100_000; i++) {
    const next = nextSlot(s, timeZone, slot);
    if (next > now) return slot;
    slot = next;
  }
  return slot;
}

/** The days (both included) a relative range covers for a run whose local day is `today`. */
export function rangeDays(range: ReportRange, today: string): { startDay: string; endDay: string } {
  switch (range) {
    case 'today': return { startDay: today, endDay: today };
    case 'yesterday': return { startDay: addDays(today, -1), endDay: addDays(today, -1) };
    case 'last7Days': return { startDay: addDays(today, -6), endDay: today };
    case 'last30Days': return { startDay: addDays(today, -29), endDay: today };
    case 'lastFullWeek': {
      const monday = addDays(today, 1 - isoWeekday(today));
      return { startDay: addDays(monday, -7), endDay: addDays(monday, -1) };
    }
    case 'lastFullMonth': {
      const first = `${today.slice(0, 8)}01`;
      const lastOfPrevious = addDays(first, -1);
      return { startDay: `${lastOfPrevious.slice(0, 8)}01`, endDay: lastOfPrevious };
    }
    default: {
      const never: never = range;
      throw new Error(`unknown range ${String(never)}`);
    }
  }
}
