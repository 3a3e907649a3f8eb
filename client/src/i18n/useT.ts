import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@gd/shared/language';
import type { TFunction, TKey, TVars } from './keys.ts';

/** Typed translation: `t('nav.account')`; keys come from the English catalogue's type. */
export function useT(): { t: TFunction; lang: Language } {
  const { t: raw, i18n } = useTranslation();
  const t = useCallback((key: TKey, vars?: TVars) => (vars ? raw(key, vars) : raw(key)), [raw]);
  return { t, lang: (i18n.language as Language | undefined) ?? 'en' };
}
