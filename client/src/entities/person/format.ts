/**
 * Pure helpers of the people screens: dates in the app's time zone and the user's language
 * (dayjs), a person's display title and avatar initials, and event labels (built-in events get
 * their i18n label).
 *
 * A person's name: the rule is shared (`@gd/shared/people/name` `personName`, the attribute keys
 * it reads), so the API computes the same name for lists (people search and recent people, segment
 * and audience samples carry `name`) as the profile reads from the whole attributes. The name
 * titles the person, with the customer id as secondary text; the avatar shows its initials, else
 * the e-mail's, else Mantine's generic person icon, never a customer id's digits.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import relativeTime from 'dayjs/plugin/relativeTime';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/en';
import 'dayjs/locale/es';
import { SCREEN_EVENT, builtInEventKey } from '@gd/shared/behaviour/events';
import { localeFor, type Language } from '@gd/shared/language';
import { formatMoney as formatMoneyIn } from '../../ui/money.ts';
import { personName } from '@gd/shared/people/name';
import type { TFunction } from '../../i18n/keys.ts';
import { emailInitials, initials } from '../../ui/initials.ts';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(relativeTime);
dayjs.extend(localizedFormat);

/** dayjs locale of an interface language (`to` has no date locale: English). */
const dayjsLocale = (lang: Language): string => (lang === 'es' ? 'es' : 'en');

/** A moment in the app's time zone; an unknown zone falls back to UTC rather than failing. */
function inZone(iso: string, zone: string | undefined) {
  const d = dayjs(iso);
  if (!zone) return d.utc();
  try {
    return d.tz(zone);
  } catch {
    return d.utc();
  }
}

export type DateStyle = 'date' | 'dateTime' | 'dateTimeSeconds' | 'time';
const FORMATS: Record<DateStyle, string> = { date: 'll', dateTime: 'll LT', dateTimeSeconds: 'll LTS', time: 'LTS' };

/** A stored time shown in the app's time zone, in the user's language ('' for none). */
export function formatAt(iso: string | null | undefined, zone: string | undefined, lang: Language, style: DateStyle = 'dateTime'): string {
  if (!iso) return '';
  const d = inZone(iso, zone);
  return d.isValid() ? d.locale(dayjsLocale(lang)).format(FORMATS[style]) : iso;
}

/** "3 hours ago", "hace 3 horas". `now` is injectable for tests. */
export function fromNow(iso: string | null | undefined, lang: Language, now: number = Date.now()): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.locale(dayjsLocale(lang)).from(dayjs(now)) : iso;
}

/** A YYYY-MM-DD date (birthday, date tags) in the user's language, with no time zone shift. */
export function formatDay(day: string | null | undefined, lang: Language): string {
  if (!day) return '';
  const d = dayjs(day, 'YYYY-MM-DD');
  return d.isValid() ? d.locale(dayjsLocale(lang)).format('ll') : day;
}

/**
 * Who a person is: a list's row carries the `name` the API computed; a profile carries the whole
 * `attributes` (the name is read from them with the same shared rule).
 */
export interface Who { customerId: string | null; email: string | null; name?: string | null; attributes?: Record<string, unknown> | null }

/** The person's name: the one the API computed, else read from their attributes. */
export const whoName = (p: Who): string | null => p.name ?? personName(p.attributes);

/** Who a person is, for titles: their name, else customer id, else e-mail, else "Anonymous". */
export function personTitle(p: Who, t: TFunction): string {
  return whoName(p) ?? p.customerId ?? p.email ?? t('people.search.anonymous');
}

/** A person's avatar text: initials of their name, else of their e-mail, else '' (the generic person icon). */
export function personInitials(p: Who): string {
  const name = whoName(p);
  return (name ? initials(name) : '') || (p.email ? emailInitials(p.email) : '');
}

/** A search result's two lines: the title and what it does not already say. */
export interface RowText {
  title: string;
  /** The customer id when a name titles the row, else the e-mail, else the device id, else the person number. */
  secondary: string;
  /** False when `secondary` is the e-mail (shown in the text font); ids are shown in monospace. */
  secondaryIsId: boolean;
}

/** The lines of a person's row in the people list. */
export function personRowText(p: Who & { id: string; deviceId: string | null }, t: TFunction): RowText {
  const title = personTitle(p, t);
  const candidates: { text: string | null; isId: boolean }[] = [
    { text: p.customerId, isId: true }, { text: p.email, isId: false }, { text: p.deviceId, isId: true },
  ];
  // The first identifier after the one that titles the row (any of them under a name; none under "Anonymous").
  const after = whoName(p) ? candidates : p.customerId ? candidates.slice(1) : p.email ? candidates.slice(2) : [];
  const next = after.find((c) => c.text);
  return next?.text ? { title, secondary: next.text, secondaryIsId: next.isId } : { title, secondary: t('people.search.personNumber', { id: p.id }), secondaryIsId: true };
}

/** An event name as people read it: the label of a built-in event, else the name itself. */
export function eventLabel(name: string, t: TFunction): string {
  const key = builtInEventKey(name);
  if (key) return t(`builtInEvent.${key}`);
  return name === SCREEN_EVENT ? t('people.timeline.screenView') : name;
}

/** Money with its currency when known, in the user's language (ui/money.ts). */
export function formatMoney(amount: number, currency: string | null, lang: Language): string {
  return formatMoneyIn(lang, amount, currency);
}

export function formatNumber(n: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang)).format(n);
}

/** A property value in one line (objects and arrays as compact JSON). */
export function propertyText(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
