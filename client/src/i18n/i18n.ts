/**
 * i18next set-up. English core texts are bundled (English is the fallback); the feature screens'
 * English texts are added after sign-in (`loadFeatureTexts`, awaited by RequireSession), and
 * Spanish and `to` are loaded on demand, so the login page carries one small catalogue.
 * `setLanguage` loads, switches, stamps <html lang>.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enCore } from '@gd/shared/i18n/en';
import type { Language } from '@gd/shared/language';
import type { TKey, TVars } from './keys.ts';

const loaders: Record<Exclude<Language, 'en'>, () => Promise<object>> = {
  es: () => import('@gd/shared/i18n/es').then((m) => m.es),
  to: () => import('@gd/shared/i18n/to').then((m) => m.to),
};

export const i18n = i18next.createInstance();

export async function initI18n(lang: Language): Promise<void> {
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: enCore } },
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

let featureTexts: Promise<void> | null = null;
/** Adds the feature screens' English texts (once); the signed-in app waits for it. */
export function loadFeatureTexts(): Promise<void> {
  featureTexts ??= import('@gd/shared/i18n/features/en').then(({ featuresEn }) => {
    i18n.addResourceBundle('en', 'translation', featuresEn, true, false);
  }).catch((error: unknown) => {
    featureTexts = null;
    throw error;
  });
  return featureTexts;
}

export const currentLanguage = (): Language => (i18n.language as Language | undefined) ?? 'en';

/** Translate outside React (notifications from stores, document titles). */
export const translate = (key: TKey, vars?: TVars): string => (vars ? i18n.t(key, vars) : i18n.t(key));

/** True when the catalogue (current language or English) has the key; for `errors.<code>`. */
export const hasKey = (key: string): boolean => i18n.exists(key);
