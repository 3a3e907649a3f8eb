/**
 * Pure helpers of the people screens: dates in the app's time zone and the user's language
 * (dayjs), a person's display name and avatar initials, and event labels (built-in events get
 * their i18n label).
 *
 * A person's name: the spec's user fields have none, so apps send it as free profile attributes.
 * `personName` reads the usual keys: a whole name (`name`, `full_name`, `display_name`, camelCase
 * too), else first and last names (`first_name`/`given_name` + `last_name`/`family_name`/`surname`,
 * what the demo data sends). The name titles the profile, with the customer id as secondary text;
 * the avatar shows its initials, else the e-mail's, else Mantine's generic person icon, never
 * a customer id's digits. Search results carry no attributes: their avatars use the e-mail.
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

const WHOLE_NAME = ['name', 'full_name', 'fullName', 'display_name', 'displayName'];
const FIRST_NAME = ['first_name', 'firstName', 'given_name', 'givenName'];
const LAST_NAME = ['last_name', 'lastName', 'family_name', 'familyName', 'surname'];

function firstText(attributes: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().replace(/\s+/g, ' ');
  }
  return null;
}

/** The person's name from their profile attributes, when the app sends one. */
export function personName(attributes: Record<string, unknown> | null | undefined): string | null {
  if (!attributes) return null;
  const whole = firstText(attributes, WHOLE_NAME);
  if (whole) return whole;
  const parts = [firstText(attributes, FIRST_NAME), firstText(attributes, LAST_NAME)].filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}

interface Who { customerId: string | null; email: string | null; attributes?: Record<string, unknown> | null }

/** Who a person is, for titles: their name, else customer id, else e-mail, else "Anonymous". */
export function personTitle(p: Who, t: TFunction): string {
  return personName(p.attributes) ?? p.customerId ?? p.email ?? t('people.search.anonymous');
}

/** A person's avatar text: initials of their name, else of their e-mail, else '' (the generic person icon). */
export function personInitials(p: Who): string {
  const name = personName(p.attributes);
  return (name ? initials(name) : '') || (p.email ? emailInitials(p.email) : '');
}

/** An event name as people read it: the label of a built-in event, else the name itself. */
export function eventLabel(name: string, t: TFunction): string {
  const key = builtInEventKey(name);
  if (key) return t(`builtInEvent.${key}`);
  return name === SCREEN_EVENT ? t('people.timeline.screenView') : name;
}

/** Money with its currency when known, in the user's language. */
export function formatMoney(amount: number, currency: string | null, lang: Language): string {
  const locale = localeFor(lang);
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount);
  }
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
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
