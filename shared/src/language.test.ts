import { describe, expect, it } from 'vitest';
import { languageFromBrowser, localeFor, resolveLanguage, stripLanguage, truncateLabel } from './language.ts';

describe('interface language', () => {
  it('comes from the first path segment when it is es, en or to', () => {
    expect(resolveLanguage('/es/user/account', ['en-US'])).toBe('es');
    expect(resolveLanguage('/to/login', ['es-ES'])).toBe('to');
    expect(resolveLanguage('/fr/login', ['es-ES'])).toBe('es');
  });
  it('otherwise from the browser, with ca, gl and eu falling back to Spanish, default en', () => {
    expect(languageFromBrowser(['ca-ES'])).toBe('es');
    expect(languageFromBrowser(['eu'])).toBe('es');
    expect(languageFromBrowser(['gl', 'en'])).toBe('es');
    expect(languageFromBrowser(['de-DE', 'en-GB'])).toBe('en');
    expect(languageFromBrowser(['de-DE'])).toBe('en');
    expect(languageFromBrowser([])).toBe('en');
  });
  it('strips the language segment for routing', () => {
    expect(stripLanguage('/es/user/account')).toBe('/user/account');
    expect(stripLanguage('/es')).toBe('/');
    expect(stripLanguage('/user/account')).toBe('/user/account');
    expect(stripLanguage('/estate')).toBe('/estate');
  });
  it('locale and label truncation', () => {
    expect(localeFor('es')).toBe('es-ES');
    expect(localeFor('to')).toBe('en-US');
    expect(truncateLabel('x'.repeat(50))).toBe('x'.repeat(50));
    expect(truncateLabel('x'.repeat(51))).toBe(`${'x'.repeat(50)}…`);
  });
});
