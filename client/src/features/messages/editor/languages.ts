/**
 * The content languages a message offers to add: common ISO 639-1 codes (and a few regional
 * variants), named in the interface language by the browser (Intl.DisplayNames).
 */
export const COMMON_LANGUAGES = [
  'ar', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'ga', 'gl', 'he', 'hi', 'hr', 'hu', 'id',
  'it', 'ja', 'ko', 'lt', 'lv', 'ms', 'nb', 'nl', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'sw', 'th', 'tl', 'tr', 'uk',
  'ur', 'vi', 'zh',
] as const;

const namers = new Map<string, Intl.DisplayNames | null>();

function namer(uiLanguage: string): Intl.DisplayNames | null {
  if (!namers.has(uiLanguage)) {
    let made: Intl.DisplayNames | null = null;
    try {
      made = new Intl.DisplayNames([uiLanguage, 'en'], { type: 'language' });
    } catch {
      made = null;
    }
    namers.set(uiLanguage, made);
  }
  return namers.get(uiLanguage) ?? null;
}

/** `es` → "Spanish" (in English) / "español" (in Spanish); the code itself when the browser cannot name it. */
export function languageName(code: string, uiLanguage: string): string {
  let name: string | undefined;
  try {
    name = namer(uiLanguage)?.of(code);
  } catch {
    name = undefined;
  }
  if (!name || name === code) return code;
  return name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1);
}

/** The languages a message may add (those it lacks), sorted by name, as select options. */
export function addableLanguages(present: readonly string[], uiLanguage: string): { value: string; label: string }[] {
  return COMMON_LANGUAGES.filter((code) => !present.includes(code))
    .map((code) => ({ value: code, label: `${languageName(code, uiLanguage)} (${code})` }))
    .sort((a, b) => a.label.localeCompare(b.label, uiLanguage));
}
