import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailInitials, initials } from './initials.ts';

/** No lone surrogate (shown as "�") and no replacement character. */
const wellFormed = (text: string) => !/\p{Cs}/u.test(text) && !text.includes('\uFFFD');

describe('initials', () => {
  it('takes the first letter of the first two words, upper-cased', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ana maría lópez')).toBe('AM');
    expect(initials('Cher')).toBe('C');
    expect(initials('  Marta   Ruiz ')).toBe('MR');
  });

  it('keeps emoji whole: surrogate pairs, joiner sequences, skin tones and flags', () => {
    for (const [name, expected] of [
      ['😀 Smile', '😀S'], ['👩‍💻 Ada', '👩‍💻A'], ['👍🏽 ok', '👍🏽O'], ['🇪🇸 España', '🇪🇸E'], ['Ana 🦊', 'A🦊'], ['👨‍👩‍👧', '👨‍👩‍👧'],
    ] as const) {
      const out = initials(name);
      expect(out, name).toBe(expected);
      expect(wellFormed(out), name).toBe(true);
    }
  });

  it('keeps a letter with its combining marks, as one composed character', () => {
    expect(initials('e\u0301mile zola')).toBe('\u00C9Z');
    expect(initials('n\u0303andu')).toBe('\u00D1');
    // A mark with no composed form stays with its letter.
    expect(initials('q\u0301uark')).toBe('Q\u0301');
    expect(initials('Zoë A\u030Angstro\u0308m')).toBe('Z\u00C5');
    // A Hangul syllable written as jamo is one character.
    expect(initials('\u1100\u1161\u11A8 \u1102\u1161')).toBe('\uAC01\uB098');
  });

  it('takes one character per word in scripts without case, and a whole CJK name without spaces as one word', () => {
    expect(initials('山田 太郎')).toBe('山太');
    expect(initials('王小明')).toBe('王');
    expect(initials('김민수')).toBe('김');
    expect(initials('Σωκράτης Παππάς')).toBe('ΣΠ');
  });

  it('does not upper-case into two characters, and skips leading punctuation', () => {
    expect(initials('ß')).toBe('ß');
    expect(initials('(Ana) - López')).toBe('AL');
    expect(initials('"Pepe" ¡Hola!')).toBe('PH');
  });

  it('is empty when there is nothing to show (the avatar then shows its person icon)', () => {
    expect(initials('')).toBe('');
    expect(initials('   ')).toBe('');
    expect(initials('-- ..')).toBe('');
  });
});

describe('emailInitials', () => {
  it('takes the words of the local part, never digits', () => {
    expect(emailInitials('ana.lopez@example.com')).toBe('AL');
    expect(emailInitials('maria.garcia.d1a2x@example.com')).toBe('MG');
    expect(emailInitials('j_doe+news@x.io')).toBe('JD');
    expect(emailInitials('10023@shop.com')).toBe('');
    expect(emailInitials('élodie@example.fr')).toBe('É');
    expect(emailInitials('')).toBe('');
  });
});

describe('without Intl.Segmenter', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('splits by code point: never half an emoji', async () => {
    vi.stubGlobal('Intl', Object.assign(Object.create(Intl) as typeof Intl, { Segmenter: undefined }));
    vi.resetModules();
    const fallback = await import('./initials.ts');
    expect(fallback.initials('😀 Smile')).toBe('😀S');
    expect(fallback.initials('山田 太郎')).toBe('山太');
    // Composed first (NFC), so only a mark with no composed form is left behind.
    expect(fallback.initials('e\u0301mile')).toBe('\u00C9');
    expect(fallback.initials('q\u0301uark')).toBe('Q');
  });
});
