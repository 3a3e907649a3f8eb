/**
 * The language segment of the URL drives the router's basename (`/es`), so every link and
 * navigation keeps the language without each screen adding it. Switching language moves the
 * current location under `/<lang>/...`, persists the choice and remounts the router.
 */
import { create } from 'zustand';
import type { Language } from '@gd/shared/language';
import { setLanguage } from './i18n.ts';
import { basenameFor, initialLanguage, pathInLanguage } from './languagePath.ts';

const STORAGE_KEY = 'gd.language';

export function storedLanguage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function persistLanguage(lang: Language): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Private mode: the URL segment still carries the choice.
  }
}

export const pageLanguage = (): Language => initialLanguage(window.location.pathname, storedLanguage(), navigator.languages);

export const useLanguageRoute = create<{ basename: string }>(() => ({ basename: basenameFor(window.location.pathname) }));

/** Switch the interface language: same path under /<lang>/, choice persisted. */
export async function switchLanguage(lang: Language): Promise<void> {
  persistLanguage(lang);
  await setLanguage(lang);
  const { pathname, search, hash } = window.location;
  window.history.pushState(null, '', pathInLanguage(lang, pathname, search, hash));
  useLanguageRoute.setState({ basename: `/${lang}` });
}

/** Back/forward across a language segment: follow the URL. */
export async function followUrlLanguage(): Promise<void> {
  const basename = basenameFor(window.location.pathname);
  if (basename === useLanguageRoute.getState().basename) return;
  await setLanguage(pageLanguage());
  useLanguageRoute.setState({ basename });
}
