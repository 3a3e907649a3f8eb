/** The whole English catalogue as one value (server-side texts, tests). The web app loads it in two parts. */
import { enCore } from './en.ts';
import { featuresEn } from './features/en.ts';
import type { English } from './en.ts';

export const en: English = { ...enCore, ...featuresEn };
