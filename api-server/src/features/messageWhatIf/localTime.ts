/**
 * Wall-clock times in time zones: which instant a local date and time (`2026-12-01T09:00`) is in a
 * zone, and the canonical name of a zone (null when Intl does not know it). Pure; no tz database of
 * our own (Intl's, as the browser's dayjs uses).
 */
import { offsetAt, wallClockFormat } from '../../seed/generator/calendar.ts';

const formats = new Map<string, Intl.DateTimeFormat | null>();

/** The zone's wall-clock formatter, or null for a name that is not a zone (cached either way). */
export function formatOf(timeZone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timeZone);
  if (format === undefined) {
    try {
      format = wallClockFormat(timeZone);
    } catch {
      format = null; // RangeError: not a zone Intl knows
    }
    // Names come from people's profiles: keep the cache from growing without bound.
    if (formats.size > 2000) formats.clear();
    formats.set(timeZone, format);
  }
  return format;
}

/** The canonical IANA name of `timeZone` (Intl accepts any case and some aliases), or null. */
export function canonicalTimeZone(timeZone: string): string | null {
  if (!timeZone || timeZone.length > 64) return null;
  return formatOf(timeZone)?.resolvedOptions().timeZone ?? null;
}

/**
 * The instant at which the zone's clocks show `local` (YYYY-MM-DDTHH:mm). A time skipped by a DST
 * change (02:30 on the spring-forward night) resolves to the instant one offset later, a repeated
 * one (autumn) to its first occurrence's offset as Intl settles it.
 */
export function instantOf(local: string, timeZone: string): Date {
  const format = formatOf(timeZone);
  if (!format) throw new RangeError(`unknown time zone ${timeZone}`);
  const wall = Date.parse(`${local}:00Z`);
  let t = wall - offsetAt(format, wall);
  // The offset at the first guess may differ from the one at the answer around a DST change: settle it.
  for (let i = 0; i < 2; i++) t = wall - offsetAt(format, t);
  return new Date(t);
}
