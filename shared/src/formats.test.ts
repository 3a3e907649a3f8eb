import { describe, expect, it } from 'vitest';
import {
  isAppSchemeUrl, isCertificateFingerprint, isColour, isDateString, isDomainName, isPrivateHost, isPublicUrl, isSlug,
  passwordProblems,
} from './formats.ts';

describe('formats', () => {
  it('password strength names each missing rule', () => {
    expect(passwordProblems('Sturdy-Pass-42!')).toEqual([]);
    expect(passwordProblems('short')).toEqual(['length', 'upper', 'digit', 'special']);
    expect(passwordProblems('alllowercase1!')).toEqual(['upper']);
    expect(passwordProblems('ALLUPPERCASE1!')).toEqual(['lower']);
    expect(passwordProblems('NoDigitsHere!')).toEqual(['digit']);
    expect(passwordProblems('NoSpecial123')).toEqual(['special']);
  });
  it('dates are real YYYY-MM-DD days', () => {
    expect(isDateString('2026-02-28')).toBe(true);
    expect(isDateString('2026-02-30')).toBe(false);
    expect(isDateString('2026-2-3')).toBe(false);
  });
  it('URLs: http, https or ftp to public hosts only', () => {
    expect(isPublicUrl('https://example.com/a')).toBe(true);
    expect(isPublicUrl('ftp://files.example.com/x.csv')).toBe(true);
    for (const bad of ['http://localhost/x', 'http://127.0.0.1/', 'http://10.1.2.3/', 'http://192.168.0.1', 'http://172.20.0.1', 'http://169.254.169.254/latest', 'http://[::1]/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      expect(isPublicUrl(bad), bad).toBe(false);
    }
    expect(isPrivateHost('172.32.0.1')).toBe(false);
    expect(isAppSchemeUrl('myapp://product/42')).toBe(true);
    expect(isAppSchemeUrl('https://example.com')).toBe(false);
    expect(isAppSchemeUrl('myapp://localhost/x')).toBe(false);
  });
  it('colour, domain, slug, fingerprint', () => {
    expect(isColour('#1A2b3C')).toBe(true);
    expect(isColour('#123')).toBe(false);
    expect(isDomainName('shop.example.com')).toBe(true);
    expect(isDomainName('a.b')).toBe(false);
    expect(isDomainName('example.c0m')).toBe(false);
    expect(isDomainName('-bad.example.com')).toBe(false);
    expect(isSlug('summer_sale~v1.2-b')).toBe(true);
    expect(isSlug('summer sale')).toBe(false);
    const pairs = (n: number) => Array.from({ length: n }, () => 'AB').join(':');
    expect(isCertificateFingerprint(pairs(20))).toBe(true);
    expect(isCertificateFingerprint(pairs(16))).toBe(false);
    expect(isCertificateFingerprint(pairs(34))).toBe(false);
    expect(isCertificateFingerprint(pairs(20).toLowerCase())).toBe(false);
  });
});
