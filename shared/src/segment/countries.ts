/**
 * Countries for the segment editor's country picker (issue 11): the ISO 3166-1 alpha-2 codes that
 * people's `country` holds (the ingestion API accepts only two capital letters), their names in
 * the interface language, a search by name or code, and the normalisation of a typed country
 * (a name in English or Spanish, a code in any case) to its code, so a saved condition always
 * holds codes. Pure (Intl only).
 *
 * Decisions:
 * - Names come from `Intl.DisplayNames` (the runtime's CLDR data), in Spanish for `es` and in
 *   English otherwise: `to` falls back to English like its catalogue.
 * - The list is the 249 officially assigned codes plus `XK` (Kosovo, user-assigned but what
 *   phones report).
 * - A search matches the name in the interface language, the English and the Spanish names and a
 *   few common other names (USA, UK, Holland, ...), ignoring case and accents: "Spain", "España",
 *   "espana" and "es" all find ES. Ranked: the exact code, an exact name, a name starting with the
 *   text, a word of a name starting with it, a name containing it; then by name.
 */

export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

const KNOWN = new Set(COUNTRY_CODES);

/** Other names people type (English and Spanish), besides the CLDR ones. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  US: ['USA', 'United States of America', 'America', 'EEUU', 'EE UU', 'Estados Unidos de América'],
  GB: ['UK', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Gran Bretaña', 'Inglaterra', 'Escocia', 'Gales'],
  NL: ['Holland', 'Holanda'],
  AE: ['UAE', 'EAU', 'Emirates', 'Emiratos'],
  TR: ['Turkey', 'Turquia'],
  CZ: ['Czech Republic', 'República Checa'],
  CI: ['Ivory Coast', 'Costa de Marfil'],
  MK: ['Macedonia'],
  SZ: ['Swaziland', 'Suazilandia'],
  KR: ['Korea', 'Corea'],
  CD: ['DR Congo', 'DRC', 'RDC'],
  HK: ['Hong Kong'],
  MO: ['Macau', 'Macao'],
  VA: ['Vatican', 'Holy See', 'Vaticano', 'Santa Sede'],
  PS: ['Palestine', 'Palestina'],
};

/** The language country names are shown in: Spanish for `es`, English otherwise. */
export type CountryLanguage = 'en' | 'es';
export const countryLanguage = (language: string): CountryLanguage => (language === 'es' ? 'es' : 'en');

/** Lower case, no accents, punctuation as spaces, single spaces. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function displayNames(language: CountryLanguage): (code: string) => string {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
  } catch {
    names = null;
  }
  return (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

export interface CountryOption {
  code: string;
  /** The name in the interface language. */
  name: string;
}

interface Entry extends CountryOption {
  lowerCode: string;
  /** Every name the country is searched by, folded. */
  names: string[];
}

const entriesByLanguage = new Map<CountryLanguage, Entry[]>();

function entries(language: CountryLanguage): Entry[] {
  const kept = entriesByLanguage.get(language);
  if (kept) return kept;
  const shown = displayNames(language);
  const en = displayNames('en');
  const es = displayNames('es');
  const collator = new Intl.Collator(language);
  const list = COUNTRY_CODES.map((code) => {
    const name = shown(code);
    const names = [...new Set([name, en(code), es(code), ...(ALIASES[code] ?? [])].map(foldText).filter((n) => n !== ''))];
    return { code, name, lowerCode: code.toLowerCase(), names };
  }).sort((a, b) => collator.compare(a.name, b.name));
  entriesByLanguage.set(language, list);
  return list;
}

/** Every country with its name in `language` (interface language), sorted by name. */
export function countryOptions(language: string): CountryOption[] {
  return entries(countryLanguage(language)).map(({ code, name }) => ({ code, name }));
}

/** The name of a code in `language`; the text itself when it is no known code. */
export function countryName(code: string, language: string): string {
  const upper = code.trim().toUpperCase();
  if (!KNOWN.has(upper)) return code;
  return entries(countryLanguage(language)).find((e) => e.code === upper)?.name ?? upper;
}

export const isCountryCode = (text: string): boolean => KNOWN.has(text);

/** How well a country matches folded text `q` (lower is better), or null when it does not. */
function rank(e: Entry, q: string): number | null {
  if (q === e.lowerCode) return 0;
  let best: number | null = null;
  for (const name of e.names) {
    const r = name === q ? 1 : name.startsWith(q) ? 2 : name.split(' ').some((word) => word.startsWith(q)) ? 3 : name.includes(q) ? 4 : null;
    if (r !== null && (best === null || r < best)) best = r;
  }
  if (best === null && q.length === 1 && e.lowerCode.startsWith(q)) return 5;
  return best;
}

/** The countries whose code or a name matches `query`, best first (all of them, by name, for an empty query). */
export function searchCountries(query: string, language: string, limit = Infinity): CountryOption[] {
  const list = entries(countryLanguage(language));
  const q = foldText(query);
  if (q === '') return list.slice(0, limit).map(({ code, name }) => ({ code, name }));
  const found: { e: Entry; r: number; i: number }[] = [];
  list.forEach((e, i) => {
    const r = rank(e, q);
    if (r !== null) found.push({ e, r, i });
  });
  return found
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, limit)
    .map(({ e }) => ({ code: e.code, name: e.name }));
}

/**
 * The code a typed country means: a known code in any case, or a name (English, Spanish or a
 * common other name, case and accents ignored) of exactly one country; null otherwise.
 */
export function countryCodeFor(text: string): string | null {
  const trimmed = text.trim();
  if (/^[a-z]{2}$/i.test(trimmed) && KNOWN.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const q = foldText(trimmed);
  if (q === '') return null;
  const [only, other] = entries('en').filter((e) => e.names.includes(q));
  return only && !other ? only.code : null;
}

/** Values as codes where they name a country (others kept as typed, trimmed), blanks and repeats dropped. */
export function normalizeCountryValues(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const value = countryCodeFor(v) ?? v.trim();
    if (value !== '' && !out.includes(value)) out.push(value);
  }
  return out;
}
