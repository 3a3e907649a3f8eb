import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normaliseAdId, normaliseEmail, normaliseEmailForGoogle, normalisePhone, sha256Hex } from './identifiers.ts';
import { batches } from './platforms.ts';

describe('normalisation', () => {
  it('is idempotent: a normalised value normalises to itself (so hashes match whatever the input)', () => {
    fc.assert(fc.property(fc.string(), fc.emailAddress(), (any, email) => {
      for (const v of [any, email, ` ${email.toUpperCase()} `]) {
        for (const f of [normaliseEmail, normaliseEmailForGoogle, normalisePhone, normaliseAdId]) {
          const once = f(v);
          if (once !== null) expect(f(once)).toBe(once);
        }
      }
    }));
  });

  it('an e-mail in any case and spacing hashes like its lower-case trimmed form', async () => {
    await fc.assert(fc.asyncProperty(fc.emailAddress(), async (email) => {
      const messy = `  ${email.toUpperCase()}\t`;
      expect(await sha256Hex(normaliseEmail(messy)!)).toBe(await sha256Hex(email.toLowerCase()));
    }), { numRuns: 50 });
  });

  it('a phone keeps only its E.164 digits, whatever the punctuation', () => {
    fc.assert(fc.property(fc.stringMatching(/^[1-9][0-9]{6,14}$/), fc.constantFrom('+', '00'), (digits, prefix) => {
      const spaced = `${prefix}${digits.replace(/(\d{3})/g, '$1 ')}`;
      expect(normalisePhone(spaced)).toBe(digits);
    }));
  });
});

describe('batches', () => {
  it('cover the items in order, none over the size', () => {
    fc.assert(fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 50 }), (items, size) => {
      const out = batches(items, size);
      expect(out.flat()).toEqual(items);
      expect(out.every((b) => b.length >= 1 && b.length <= size)).toBe(true);
    }));
  });
});
