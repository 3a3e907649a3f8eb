/**
 * Postback templates whatever the values (macros.ts): a value read back from the filled URL is the
 * value put in, whatever its characters; filling never adds a parameter or a path segment; text
 * around the placeholders is kept; a template without placeholders is unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POSTBACK_MACROS } from './model.ts';
import { fillPostbackUrl } from './macros.ts';

const arbMacro = fc.constantFrom(...POSTBACK_MACROS);
const arbValue = fc.oneof(fc.string({ unit: 'binary' }), fc.integer().map(String)).filter((s) => !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')));

describe('fillPostbackUrl properties', () => {
  it('reads every value back from the query, and adds no parameter', () => {
    fc.assert(fc.property(fc.uniqueArray(arbMacro, { minLength: 1, maxLength: 10 }), fc.array(arbValue, { minLength: 10, maxLength: 10 }), (macros, vals) => {
      const template = `https://pb.example.com/cb?${macros.map((m) => `${m}={${m}}`).join('&')}`;
      const values = Object.fromEntries(macros.map((m, i) => [m, vals[i]]));
      const url = new URL(fillPostbackUrl(template, values));
      expect([...url.searchParams.keys()]).toEqual(macros);
      macros.forEach((m, i) => expect(url.searchParams.get(m)).toBe(vals[i]));
    }));
  });

  it('keeps one path segment per placeholder in the path', () => {
    fc.assert(fc.property(arbMacro, arbValue, (m, v) => {
      const url = new URL(fillPostbackUrl(`https://pb.example.com/a/{${m}}/b`, { [m]: v }));
      const segments = url.pathname.split('/');
      expect(segments).toHaveLength(4);
      expect(decodeURIComponent(segments[2] ?? '')).toBe(v);
    }));
  });

  it('leaves text without placeholders unchanged', () => {
    fc.assert(fc.property(fc.string().filter((s) => !/\{[A-Za-z][A-Za-z0-9_]*\}/.test(s)), arbValue, (text, v) => {
      expect(fillPostbackUrl(text, { click_id: v })).toBe(text);
    }));
  });
});
