/** Typed i18n keys (CONVENTIONS.md 13): every leaf path of the English catalogue. */
import type { English } from '@gd/shared/i18n/en';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & (string | number)]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & (string | number)];
type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** `users_one` / `users_other` are used as `users` with a `count`. */
type StripPlural<K> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

export type TKey = StripPlural<Leaves<English>>;
export type TVars = Record<string, string | number>;
export type TFunction = (key: TKey, vars?: TVars) => string;

type NavLabels = keyof English['nav'];
/** The key of a route's navigation label (`RouteDef.label` is a plain string in shared). */
export const navKey = (label: string): TKey => `nav.${label as NavLabels}`;
