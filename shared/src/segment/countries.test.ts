/**
 * The country picker's rules (issue 11: "Country 'Spain' finds nobody because only 'ES' works"):
 * names in the interface language (Spanish for es, English for en and `to`), a search by name in
 * English or Spanish or by code that finds the code, and typed names normalised to codes.
 */
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryCodeFor, countryName, countryOptions, normalizeCountryValues, searchCountries } from './countries.ts';

const codes = (query: string, language: string, limit?: number) => searchCountries(query, language, limit).map((c) => c.code);

describe('country names', () => {
  it('names a code in the interface language, English for `to`', () => {
    expect(countryName('ES', 'en')).toBe('Spain');
    expect(countryName('ES', 'es')).toBe('España');
    expect(countryName('DE', 'es')).toBe('Alemania');
    expect(countryName('ES', 'to')).toBe('Spain');
    expect(countryName('es', 'en')).toBe('Spain');
    expect(countryName('Atlantis', 'en')).toBe('Atlantis');
  });

  it('lists every code once, sorted by its name in the language', () => {
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    expect(COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    const spanish = countryOptions('es');
    expect(spanish).toHaveLength(COUNTRY_CODES.length);
    const names = spanish.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('es').compare));
    // Every code has a name of its own.
    expect(countryOptions('en').filter((c) => c.name === c.code)).toEqual([]);
  });
});

describe('searching countries', () => {
  it('finds Spain by its English or Spanish name, in either language, ignoring case and accents', () => {
    for (const language of ['en', 'es', 'to']) {
      for (const query of ['Spain', 'spa', 'España', 'Espa', 'espana', 'ESPAÑA']) expect(codes(query, language)[0], `${query} in ${language}`).toBe('ES');
    }
  });

  it('puts the exact code first, then names starting with the text, then names with a word starting with it', () => {
    expect(codes('es', 'en')[0]).toBe('ES');
    expect(codes('de', 'es')[0]).toBe('DE');
    // Germany starts with it; Algeria, Niger and Nigeria only contain it.
    expect(codes('ger', 'en')).toEqual(['DE', 'DZ', 'NE', 'NG']);
    expect(codes('alem', 'es')).toEqual(['DE']);
    // "Korea" starts no English name, but is a word of two of them: both, after none that start with it.
    expect(codes('korea', 'en')).toEqual(expect.arrayContaining(['KR', 'KP']));
    const united = codes('united', 'en');
    expect(united.slice(0, 3).sort()).toEqual(['AE', 'GB', 'US']);
  });

  it('knows common other names', () => {
    expect(codes('USA', 'en')[0]).toBe('US');
    expect(codes('EEUU', 'es')[0]).toBe('US');
    expect(codes('uk', 'en')[0]).toBe('GB');
    expect(codes('Holanda', 'es')[0]).toBe('NL');
  });

  it('lists every country for an empty search, and respects the limit', () => {
    expect(codes('', 'en')).toHaveLength(COUNTRY_CODES.length);
    expect(codes('a', 'en', 5)).toHaveLength(5);
    expect(codes('zzzz', 'en')).toEqual([]);
  });
});

describe('typed countries as codes', () => {
  it('turns a code in any case or an exact name in English or Spanish into the code', () => {
    expect(countryCodeFor('ES')).toBe('ES');
    expect(countryCodeFor(' es ')).toBe('ES');
    expect(countryCodeFor('Spain')).toBe('ES');
    expect(countryCodeFor('españa')).toBe('ES');
    expect(countryCodeFor('Estados Unidos')).toBe('US');
    expect(countryCodeFor('United Kingdom')).toBe('GB');
  });

  it('leaves what names no single country', () => {
    expect(countryCodeFor('Spa')).toBeNull();
    expect(countryCodeFor('ZZ')).toBeNull();
    expect(countryCodeFor('')).toBeNull();
  });

  it('normalises a list of values, dropping blanks and repeats', () => {
    expect(normalizeCountryValues(['Spain', 'ES', ' méxico ', '', 'Narnia', 'fr'])).toEqual(['ES', 'MX', 'Narnia', 'FR']);
  });
});
