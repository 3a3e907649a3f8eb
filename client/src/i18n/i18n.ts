/**
 * i18next set-up. English is bundled (it is the fallback); Spanish and `to` are loaded on demand,
 * so the login page carries one catalogue. `setLanguage` loads, switches, stamps <html lang>.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '@gd/shared/i18n/en';
import type { Language } from '@gd/shared/language';
import type { TKey, TVars } from './keys.ts';

const loaders: Record<Exclude<Language, 'en'>, () => Promise<object>> = {
  es: () => import('@gd/shared/i18n/es').then((m) => m.es),
  to: () => import('@gd/shared/i18n/to').then((m) => m.to),
};

export const i18n = i18next.createInstance();

export async function initI18n(lang: Language): Promise<void> {
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  await setLanguage(lang);
}

async function ensureLoaded(lang: Language): Promise<void> {
  if (lang === 'en' || i18n.hasResourceBundle(lang, 'translation')) return;
  const catalogue = await loaders[lang]();
  i18n.addResourceBundle(lang, 'translation', catalogue, true, true);
}

export async function setLanguage(lang: Language): Promise<void> {
  await ensureLoaded(lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export const currentLanguage = (): Language => (i18n.language as Language | undefined) ?? 'en';

/** Translate outside React (notifications from stores, document titles). */
export const translate = (key: TKey, vars?: TVars): string => (vars ? i18n.t(key, vars) : i18n.t(key));

/** True when the catalogue (current language or English) has the key; for `errors.<code>`. */
export const hasKey = (key: string): boolean => i18n.exists(key);
