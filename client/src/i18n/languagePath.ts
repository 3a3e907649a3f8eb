/**
 * Language in the URL (SPEC.md section 2): every route works both as /user/account and as
 * /es/user/account. Pure helpers; the router uses the language segment as its basename.
 */
import { DEFAULT_LANGUAGE, isLanguage, languageFromBrowser, languageFromPath, stripLanguage, type Language } from '@gd/shared/language';

/** The page's language: the path segment, else the choice the user made, else the browser, else en. */
export function initialLanguage(pathname: string, stored: string | null | undefined, browserLanguages: readonly string[]): Language {
  return languageFromPath(pathname) ?? (isLanguage(stored ?? undefined) ? (stored as Language) : undefined) ?? languageFromBrowser(browserLanguages) ?? DEFAULT_LANGUAGE;
}

/** The same location under another language segment: `/es/user/account?x=1` → `/en/user/account?x=1`. */
export function pathInLanguage(lang: Language, pathname: string, search = '', hash = ''): string {
  const rest = stripLanguage(pathname);
  return `/${lang}${rest === '/' ? '' : rest}${search}${hash}`;
}

/** The router basename for a URL: `/es` when the path starts with a language segment, else `/`. */
export const basenameFor = (pathname: string): string => {
  const lang = languageFromPath(pathname);
  return lang ? `/${lang}` : '/';
};

/**
 * A `next` target after sign-in: only a path inside this app (starts with one slash, not `//`,
 * no scheme), else undefined. Guards against open redirects through /login?next=.
 */
export function safeNext(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  if (/^\/[^/]*:/.test(next)) return undefined;
  if (stripLanguage(next.split(/[?#]/)[0] ?? '') === '/login') return undefined;
  return next;
}

/**
 * A redirect returned by the API (auto-login): a relative path, or an absolute URL on this
 * origin reduced to its path; anything else is refused.
 */
export function safeRedirect(redirect: string | null | undefined, origin: string): string | undefined {
  if (!redirect) return undefined;
  if (redirect.startsWith('/')) return safeNext(redirect);
  try {
    const url = new URL(redirect);
    return url.origin === origin ? safeNext(`${url.pathname}${url.search}${url.hash}`) : undefined;
  } catch {
    return undefined;
  }
}
