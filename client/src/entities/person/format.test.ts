import { describe, expect, it } from 'vitest';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { eventLabel, formatAt, formatDay, formatMoney, fromNow, personInitials, personRowText, personTitle, propertyText } from './format.ts';

const t = ((key: TKey) => `[${key}]`) as TFunction;

describe('dates in the app time zone', () => {
  it("shows a stored UTC time in the app's zone, in the user's language", () => {
    expect(formatAt('2026-03-01T23:30:00Z', 'Europe/Madrid', 'en', 'dateTime')).toBe('Mar 2, 2026 12:30 AM');
    expect(formatAt('2026-03-01T23:30:00Z', 'America/New_York', 'en', 'date')).toBe('Mar 1, 2026');
    expect(formatAt('2026-03-01T23:30:05Z', 'Europe/Madrid', 'es', 'time')).toBe('0:30:05');
    expect(formatAt('2026-03-01T23:30:00Z', 'Europe/Madrid', 'es', 'date')).toBe('2 de mar de 2026');
  });

  it('falls back to UTC for an unknown zone and to nothing for no time', () => {
    expect(formatAt('2026-03-01T23:30:00Z', 'Not/AZone', 'en', 'dateTime')).toBe('Mar 1, 2026 11:30 PM');
    expect(formatAt(null, 'UTC', 'en')).toBe('');
  });

  it('says how long ago, and shows dates without a zone shift', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(fromNow('2026-03-01T09:00:00Z', 'en', now)).toBe('3 hours ago');
    expect(fromNow('2026-03-01T09:00:00Z', 'es', now)).toBe('hace 3 horas');
    expect(formatDay('1991-04-12', 'en')).toBe('Apr 12, 1991');
  });
});

describe('labels', () => {
  it('labels built-in events and the screen event, and keeps custom names', () => {
    expect(eventLabel('gd_transaction', t)).toBe('[builtInEvent.transaction]');
    expect(eventLabel('e_screen_name', t)).toBe('[people.timeline.screenView]');
    expect(eventLabel('add_to_cart', t)).toBe('add_to_cart');
    expect(eventLabel('gd_unknown', t)).toBe('gd_unknown');
  });

  it('names a person by their name, then customer id, then e-mail, else anonymous', () => {
    expect(personTitle({ customerId: '10023', email: 'a@b.c', attributes: { first_name: 'Ana', last_name: 'López' } }, t)).toBe('Ana López');
    expect(personTitle({ customerId: 'c1', email: 'a@b.c' }, t)).toBe('c1');
    expect(personTitle({ customerId: 'c1', email: 'a@b.c', attributes: { plan: 'gold', name: '  ' } }, t)).toBe('c1');
    expect(personTitle({ customerId: null, email: 'a@b.c' }, t)).toBe('a@b.c');
    expect(personTitle({ customerId: null, email: null }, t)).toBe('[people.search.anonymous]');
  });

  it("titles a list's person by the name the API sent (people list, segment samples)", () => {
    expect(personTitle({ customerId: '10023', email: 'a@b.c', name: 'Ana López' }, t)).toBe('Ana López');
    expect(personTitle({ customerId: '10023', email: 'a@b.c', name: null }, t)).toBe('10023');
    expect(personInitials({ customerId: '10023', email: null, name: 'Ana López' })).toBe('AL');
  });

  it("gives a people list row the name as title and, below it, what the title does not say", () => {
    const row = (p: { name?: string | null; customerId?: string | null; email?: string | null; deviceId?: string | null }) =>
      personRowText({ id: '7', name: null, customerId: null, email: null, deviceId: null, ...p }, t);
    expect(row({ name: 'Ana López', customerId: '10023', email: 'ana@x.com' })).toEqual({ title: 'Ana López', secondary: '10023', secondaryIsId: true });
    expect(row({ name: 'Ana López', email: 'ana@x.com', deviceId: 'd-1' })).toEqual({ title: 'Ana López', secondary: 'ana@x.com', secondaryIsId: false });
    expect(row({ customerId: '10023', email: 'ana@x.com' })).toEqual({ title: '10023', secondary: 'ana@x.com', secondaryIsId: false });
    expect(row({ customerId: '10023', deviceId: 'd-1' })).toEqual({ title: '10023', secondary: 'd-1', secondaryIsId: true });
    expect(row({ email: 'ana@x.com', deviceId: 'd-1' })).toEqual({ title: 'ana@x.com', secondary: 'd-1', secondaryIsId: true });
    expect(row({ deviceId: 'd-1' })).toEqual({ title: '[people.search.anonymous]', secondary: '[people.search.personNumber]', secondaryIsId: true });
    expect(row({ customerId: '10023' }).secondary).toBe('[people.search.personNumber]');
  });

  it("puts the name's initials on the avatar, else the e-mail's, else nothing (the person icon): never a customer id's digits", () => {
    expect(personInitials({ customerId: '10023', email: 'x@y.z', attributes: { first_name: 'Ana', last_name: 'López' } })).toBe('AL');
    expect(personInitials({ customerId: '10023', email: null, attributes: { name: '🦊 Zorro' } })).toBe('🦊Z');
    expect(personInitials({ customerId: '10023', email: 'maria.garcia@example.com' })).toBe('MG');
    expect(personInitials({ customerId: '10023', email: '10023@shop.example' })).toBe('');
    expect(personInitials({ customerId: '10023', email: null })).toBe('');
    expect(personInitials({ customerId: null, email: null, attributes: { name: '—' } })).toBe('');
  });

  it('formats money and property values', () => {
    expect(formatMoney(42.5, 'EUR', 'en')).toBe('€42.50');
    expect(formatMoney(275.6, null, 'es')).toBe('275,60');
    expect(propertyText(['a', 1])).toBe('["a",1]');
    expect(propertyText(null)).toBe('null');
  });
});
