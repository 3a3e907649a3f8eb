/**
 * When one person's copy of a message may go out (pure): the schedule's first send placed in the
 * person's time zone ("09:00 device local time" is 09:00 wherever each device is, so a send goes
 * out in waves as 09:00 reaches each zone) or in the app's zone, then held past the message's quiet
 * hours in the person's zone. A person without a known zone counts in the app's zone.
 */
import type { MessageDelivery, MessageSchedule } from '@gd/shared';
import { wallClockFormat } from '../../seed/generator/calendar.ts';
import { canonicalTimeZone, formatOf, instantOf } from '../messageWhatIf/localTime.ts';

/** The zone a person's times are read in: theirs when Intl knows it, else the app's. */
export const zoneOf = (personZone: string | null, appZone: string): string =>
  (personZone ? canonicalTimeZone(personZone) : null) ?? canonicalTimeZone(appZone) ?? 'UTC';

/** The wall-clock time the schedule names for its first send (null: now). */
function scheduledLocal(schedule: MessageSchedule): { local: string; basis: 'deviceLocal' | 'userTimezone' } | null {
  switch (schedule.kind) {
    case 'now':
      return null;
    case 'at':
      return { local: schedule.at, basis: schedule.basis };
    case 'recurring':
      return { local: schedule.startsAt, basis: schedule.basis };
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The wall-clock date and time of occurrence `n` (0: the first) of a recurring schedule: `startsAt`
 * plus n days, weeks or months, at the same clock time. A monthly schedule keeps its day of the
 * month, or the month's last day when the month is shorter (the 31st: 28 February, 30 April), as
 * calendar apps do. Null once it passes `endsAt`.
 */
export function occurrenceLocal(schedule: Extract<MessageSchedule, { kind: 'recurring' }>, n: number): string | null {
  const [date = '', time = ''] = schedule.startsAt.split('T');
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  let local: string;
  if (schedule.frequency === 'monthly') {
    const months = (m - 1) + n;
    const year = y + Math.floor(months / 12);
    const month = (months % 12) + 1;
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    local = `${year}-${pad2(month)}-${pad2(Math.min(d, lastDay))}T${time}`;
  } else {
    const day = new Date(Date.UTC(y, m - 1, d) + n * (schedule.frequency === 'weekly' ? 7 : 1) * 86_400_000);
    local = `${day.toISOString().slice(0, 10)}T${time}`;
  }
  return schedule.endsAt !== null && local > schedule.endsAt ? null : local;
}

/** The schedule one run of a message sends by: a recurring schedule's occurrence `n` is a send at its date and time. */
export function scheduleOfRun(schedule: MessageSchedule, occurrence: number): MessageSchedule {
  if (schedule.kind !== 'recurring') return schedule;
  return { kind: 'at', at: occurrenceLocal(schedule, occurrence) ?? schedule.startsAt, basis: schedule.basis };
}

/**
 * The occurrence after `n` that a recurring message sends next, with the instant its run starts
 * (the earliest zone's, as `earliestSendAt`); null when the schedule has ended. Occurrences whose
 * time passed while the message was paused are skipped, not sent late in a burst: the next one is
 * the first still ahead of `now`.
 */
export function nextOccurrence(schedule: MessageSchedule, n: number, appZone: string, now: Date): { occurrence: number; notBefore: Date } | null {
  if (schedule.kind !== 'recurring') return null;
  for (let k = n + 1; k < n + 10_000; k++) {
    const local = occurrenceLocal(schedule, k);
    if (local === null) return null;
    const notBefore = earliestSendAt({ kind: 'at', at: local, basis: schedule.basis }, appZone, now);
    // The run starts when the earliest zone reaches the time; it is due while the latest zone has not.
    const latest = schedule.basis === 'deviceLocal' ? instantOf(local, 'Etc/GMT+12') : notBefore;
    if (latest.getTime() > now.getTime()) return { occurrence: k, notBefore };
  }
  return null;
}

/** The first send as an instant for a person in `zone` (the app's zone for the user-time-zone basis). */
export function firstSendAt(schedule: MessageSchedule, zone: string, appZone: string, now: Date): Date {
  const at = scheduledLocal(schedule);
  if (!at) return now;
  return instantOf(at.local, at.basis === 'deviceLocal' ? zone : zoneOf(null, appZone));
}

/** The earliest first send over every zone (what the run waits for before it resolves). */
export function earliestSendAt(schedule: MessageSchedule, appZone: string, now: Date): Date {
  const at = scheduledLocal(schedule);
  if (!at) return now;
  // The earliest clocks on Earth run 14 hours ahead of UTC (Pacific/Kiritimati).
  return at.basis === 'deviceLocal' ? instantOf(at.local, 'Pacific/Kiritimati') : instantOf(at.local, zoneOf(null, appZone));
}

function localParts(at: Date, zone: string): { date: string; minutes: number } {
  const format = formatOf(zone) ?? wallClockFormat('UTC');
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const hour = Number(parts.hour) % 24;
  const pad = (v: string | undefined) => String(v).padStart(2, '0');
  return { date: `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`, minutes: hour * 60 + Number(parts.minute) };
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * `at`, or the end of the quiet hours when `at` falls inside them on the person's clock. The
 * window is [from, to) and may wrap past midnight (22:00 to 08:00).
 */
export function afterQuietHours(at: Date, zone: string, quiet: MessageDelivery['quietHours']): Date {
  if (!quiet) return at;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return at;
  const { date, minutes } = localParts(at, zone);
  const wraps = from > to;
  const inside = wraps ? minutes >= from || minutes < to : minutes >= from && minutes < to;
  if (!inside) return at;
  // In a wrapping window the end is tomorrow when the clock is past `from` (before midnight).
  const endDate = wraps && minutes >= from ? nextDay(date) : date;
  return instantOf(`${endDate}T${quiet.to}`, zone);
}

/** The person's local calendar day of an instant (frequency caps count per such day). */
export const localDay = (at: Date, zone: string): string => localParts(at, zone).date;

/** When a person's copy goes out: the schedule in their zone, then past quiet hours. */
export function sendTimeFor(c: { schedule: MessageSchedule; delivery: MessageDelivery; personZone: string | null; appZone: string; now: Date }): Date {
  const zone = zoneOf(c.personZone, c.appZone);
  const first = firstSendAt(c.schedule, zone, c.appZone, c.now);
  return afterQuietHours(first.getTime() < c.now.getTime() ? c.now : first, zone, c.delivery.quietHours);
}
