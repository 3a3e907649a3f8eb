/** Test helper: a real i18next `t` over a shared catalogue (no DOM). Only imported by tests. */
import i18next from 'i18next';
import { en } from '@gd/shared/i18n/all';
import { es } from '@gd/shared/i18n/es';
import type { TFunction } from '../../../i18n/keys.ts';

export async function catalogueT(lang: 'en' | 'es' = 'en'): Promise<TFunction> {
  const i18n = i18next.createInstance();
  await i18n.init({ resources: { en: { translation: en }, es: { translation: es } }, lng: lang, fallbackLng: 'en', interpolation: { escapeValue: false } });
  return (key, vars) => (vars ? i18n.t(key, vars) : i18n.t(key));
}
