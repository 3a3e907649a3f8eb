/**
 * English catalogue: the source of the typed i18n keys. Every other catalogue must have the same
 * shape (checked by the compiler through `Catalogue`).
 */

import type { featuresEn } from './features/en.ts';
import { shellEn } from './core/shell.en.ts';
import { authEn } from './core/auth.en.ts';
import { accountEn } from './core/account.en.ts';

/** The core texts (./core/, one file per area): shell, sign-in, account; bundled with the login page. */
export const enCore = {
  ...shellEn,
  ...authEn,
  ...accountEn,
};

export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/**
 * The whole English catalogue's shape: the core above and the feature screens' texts
 * (./features/en.ts), which the web app loads after sign-in so the login page stays small.
 */
export type English = typeof enCore & typeof featuresEn;
export type Catalogue = Widen<English>;
