import { describe, expect, it } from 'vitest';
import { basenameFor, initialLanguage, pathInLanguage, safeNext, safeRedirect } from './languagePath.ts';

describe('language routing', () => {
  it('takes the language from the first path segment, then the stored choice, then the browser, else en', () => {
    expect(initialLanguage('/es/user/account', 'en', ['en-US'])).toBe('es');
    expect(initialLanguage('/user/account', 'to', ['es-ES'])).toBe('to');
    expect(initialLanguage('/user/account', null, ['ca-ES'])).toBe('es');
    expect(initialLanguage('/user/account', 'xx', ['gl'])).toBe('es');
    expect(initialLanguage('/user/account', null, ['fr-FR', 'eu'])).toBe('es');
    expect(initialLanguage('/user/account', null, ['de-DE'])).toBe('en');
    expect(initialLanguage('/', undefined, [])).toBe('en');
  });

  it('moves a location under another language segment', () => {
    expect(pathInLanguage('es', '/user/account', '?a=1', '#x')).toBe('/es/user/account?a=1#x');
    expect(pathInLanguage('en', '/es/user/account')).toBe('/en/user/account');
    expect(pathInLanguage('to', '/es')).toBe('/to');
    expect(pathInLanguage('es', '/')).toBe('/es');
  });

  it('uses the language segment as router basename', () => {
    expect(basenameFor('/es/user/account')).toBe('/es');
    expect(basenameFor('/user/account')).toBe('/');
    expect(basenameFor('/español')).toBe('/');
  });

  it('accepts only in-app next targets', () => {
    expect(safeNext('/user/account?x=1')).toBe('/user/account?x=1');
    expect(safeNext('//evil.example')).toBeUndefined();
    expect(safeNext('/\\evil.example')).toBeUndefined();
    expect(safeNext('https://evil.example')).toBeUndefined();
    expect(safeNext('javascript:alert(1)')).toBeUndefined();
    expect(safeNext('/login?next=/x')).toBeUndefined();
    expect(safeNext('/es/login')).toBeUndefined();
    expect(safeNext(null)).toBeUndefined();
  });

  it('accepts API redirects on this origin only', () => {
    expect(safeRedirect('/user/password', 'https://app.example')).toBe('/user/password');
    expect(safeRedirect('https://app.example/es/user/welcome?a=1', 'https://app.example')).toBe('/es/user/welcome?a=1');
    expect(safeRedirect('https://evil.example/user', 'https://app.example')).toBeUndefined();
    expect(safeRedirect('not a url', 'https://app.example')).toBeUndefined();
  });
});
