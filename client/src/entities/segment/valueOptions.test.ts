/** The country and OS pickers' lists: the data's values first with counts, the known lists after, searches ranked. */
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '@gd/shared/segment/countries';
import { AppOs } from '@gd/shared/enums';
import { countryItems, filterCountryItems, osItems } from './valueOptions.ts';

describe('country picker items', () => {
  it('puts the countries of the data first, most people first, and every other country after, by name in the language', () => {
    const { inData, others } = countryItems('es', [{ value: 'MX', count: 9 }, { value: 'ES', count: 4 }, { value: 'es', count: 1 }, { value: 'Narnia', count: 3 }], []);
    expect(inData).toEqual([{ value: 'MX', label: 'México', count: 9 }, { value: 'ES', label: 'España', count: 4 }]);
    expect(others).toHaveLength(COUNTRY_CODES.length - 2);
    expect(others.map((o) => o.value)).not.toContain('ES');
    expect(others[0]).toEqual({ value: 'AF', label: 'Afganistán' });
  });

  it('keeps held values that are no code, as they are', () => {
    const { others } = countryItems('en', [], ['ES', 'Spain']);
    expect(others.at(-1)).toEqual({ value: 'Spain', label: 'Spain' });
    expect(others.filter((o) => o.value === 'ES')).toHaveLength(1);
  });

  it('finds Spain first by "Spa" in English and "Esp" in Spanish, the data first among equal matches', () => {
    const en = countryItems('en', [], []);
    expect(filterCountryItems([...en.inData, ...en.others], 'Spa', 'en')[0]?.value).toBe('ES');
    const es = countryItems('es', [{ value: 'EE', count: 2 }], []);
    expect(filterCountryItems([...es.inData, ...es.others], 'Esp', 'es')[0]?.value).toBe('ES');
    // "es" is Spain's code: it comes before Estonia (in the data) and the names starting with "es".
    expect(filterCountryItems([...es.inData, ...es.others], 'es', 'es')[0]?.value).toBe('ES');
    expect(filterCountryItems(en.others, '', 'en')).toHaveLength(en.others.length);
  });
});

describe('operating system items', () => {
  it('lists the data first (known spellings kept), then the rest of the known systems, then held values', () => {
    const items = osItems([{ value: 'android', count: 7 }, { value: 'Tizen', count: 2 }], ['Symbian']);
    expect(items.slice(0, 2)).toEqual([{ value: 'Android', label: 'Android', count: 7 }, { value: 'Tizen', label: 'Tizen', count: 2 }]);
    expect(items.map((i) => i.value)).toEqual(['Android', 'Tizen', ...AppOs.options.filter((os) => os !== 'Android'), 'Symbian']);
  });
});
