/**
 * Interface language (SPEC.md sections 2 and 9): from the first path segment when it is es, en or
 * to; otherwise the browser language; default en. Catalan, Galician and Basque fall back to Spanish.
 */
export const LANGUAGES = ['en', 'es', 'to'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
const SPANISH_FALLBACKS = new Set(['ca', 'gl', 'eu']);

export const isLanguage = (s: string | undefined): s is Language => (LANGUAGES as readonly string[]).includes(s ?? '');

export function languageFromBrowser(browserLanguages: readonly string[]): Language {
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (isLanguage(base)) return base;
    if (SPANISH_FALLBACKS.has(base)) return 'es';
  }
  return DEFAULT_LANGUAGE;
}

export function languageFromPath(pathname: string): Language | undefined {
  const first = pathname.split('/').filter(Boolean)[0];
  return isLanguage(first) ? first : undefined;
}

export function resolveLanguage(pathname: string, browserLanguages: readonly string[]): Language {
  return languageFromPath(pathname) ?? languageFromBrowser(browserLanguages);
}

/** The path without its language segment, for routing. */
export function stripLanguage(pathname: string): string {
  const lang = languageFromPath(pathname);
  if (!lang) return pathname;
  const rest = pathname.slice(lang.length + 1);
  return rest === '' ? '/' : rest;
}

/** Locale for dates and numbers: es-ES for Spanish, otherwise en-US. */
export const localeFor = (lang: Language): 'es-ES' | 'en-US' => (lang === 'es' ? 'es-ES' : 'en-US');

/** Labels truncate at 50 characters with an ellipsis. */
export const LABEL_MAX = 50;
export function truncateLabel(label: string, max = LABEL_MAX): string {
  return label.length > max ? `${label.slice(0, max)}…` : label;
}
