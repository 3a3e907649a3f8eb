/**
 * What the country and operating-system pickers list (pure, tested):
 *
 * - countries: those present in the app's data first (most people first, with their counts), then
 *   every other ISO 3166 country by name in the interface language; values a condition holds that
 *   are no country code (typed before the picker existed) are kept and shown as they are. A search
 *   ranks by the shared `searchCountries` (code, English, Spanish and other names), the data's
 *   countries first among equals;
 * - operating systems: those in the data first (with counts), then the rest of the shared `AppOs`
 *   list, then other values the data or the condition holds.
 */
import { AppOs } from '@gd/shared/enums';
import { countryName, isCountryCode, searchCountries } from '@gd/shared/segment/countries';
import type { SegmentValue } from '@gd/shared/schemas/segments';

export interface PickerItem {
  value: string;
  label: string;
  /** People with this value in the data, when it is there. */
  count?: number;
}

const countsByCode = (inData: readonly SegmentValue[]) => {
  const counts = new Map<string, number>();
  for (const v of inData) {
    const code = v.value.trim().toUpperCase();
    if (isCountryCode(code) && !counts.has(code)) counts.set(code, v.count);
  }
  return counts;
};

/** The countries of the data (most people first), the others by name, and held values that are no code. */
export function countryItems(language: string, inData: readonly SegmentValue[], held: readonly string[]): { inData: PickerItem[]; others: PickerItem[] } {
  const counts = countsByCode(inData);
  const present: PickerItem[] = [...counts].map(([code, count]) => ({ value: code, label: countryName(code, language), count }));
  const others: PickerItem[] = searchCountries('', language)
    .filter((c) => !counts.has(c.code))
    .map((c) => ({ value: c.code, label: c.name }));
  const strays = held.filter((v) => !isCountryCode(v)).filter((v, i, all) => all.indexOf(v) === i).map((v) => ({ value: v, label: v }));
  return { inData: present, others: [...others, ...strays] };
}

/** The items matching `search`, best match first (the data's countries first among equals); all of them, in order, for no search. */
export function filterCountryItems(items: readonly PickerItem[], search: string, language: string): PickerItem[] {
  if (search.trim() === '') return [...items];
  const rank = new Map(searchCountries(search, language).map((c, i) => [c.code, i]));
  const q = search.trim().toLowerCase();
  const scored = items
    .map((item, order) => ({ item, order, r: rank.get(item.value) ?? (item.label.toLowerCase().includes(q) ? rank.size : undefined) }))
    .filter((x): x is { item: PickerItem; order: number; r: number } => x.r !== undefined);
  return scored.sort((a, b) => a.r - b.r || (b.item.count ?? -1) - (a.item.count ?? -1) || a.order - b.order).map((x) => x.item);
}

/** Operating systems: the data's first (most people first), then the rest of AppOs, then other held values. */
export function osItems(inData: readonly SegmentValue[], held: readonly string[]): PickerItem[] {
  const out: PickerItem[] = [];
  const has = (value: string) => out.some((o) => o.value.toLowerCase() === value.toLowerCase());
  for (const v of inData) {
    if (v.value.trim() === '' || has(v.value)) continue;
    // Shown with the list's spelling when it is one of the known systems (comparisons ignore case).
    const known = AppOs.options.find((os) => os.toLowerCase() === v.value.toLowerCase());
    out.push({ value: known ?? v.value, label: known ?? v.value, count: v.count });
  }
  for (const os of AppOs.options) if (!has(os)) out.push({ value: os, label: os });
  for (const v of held) if (v.trim() !== '' && !has(v)) out.push({ value: v, label: v });
  return out;
}
