/**
 * The three interface languages against the English source of the keys: Spanish has exactly the
 * same keys, `to` a subset (it falls back to English), and no text loses or invents a
 * `{{variable}}`. Also the core split (./core/): every area has the same keys in English and
 * Spanish, and no two parts of a catalogue share a top-level group (a spread would silently
 * drop one of them).
 */
import { describe, expect, it } from 'vitest';
import { en } from './all.ts';
import { enCore } from './en.ts';
import { es } from './es.ts';
import { to } from './to.ts';
import { featuresEn } from './features/en.ts';
import { shellEn } from './core/shell.en.ts';
import { shellEs } from './core/shell.es.ts';
import { authEn } from './core/auth.en.ts';
import { authEs } from './core/auth.es.ts';
import { accountEn } from './core/account.en.ts';
import { accountEs } from './core/account.es.ts';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf as `a.b.c` → text; fails on a leaf that is neither text nor a group. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (value !== null && typeof value === 'object') for (const [p, v] of leaves(value, path)) out.set(p, v);
    else throw new Error(`${path} is neither a text nor a group`);
  }
  return out;
}

const variables = (text: string): string[] => [...new Set([...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1] ?? ''))].sort();

const english = leaves(en);
const spanish = leaves(es);
const tongan = leaves(to);

describe('catalogues', () => {
  it('Spanish has exactly the English keys, each with a text', () => {
    expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of spanish) expect(text.trim(), key).not.toBe('');
  });

  it('to has only English keys (the rest falls back to English)', () => {
    expect(tongan.size).toBeGreaterThan(0);
    expect([...tongan.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  it('keeps the interpolation variables of the English text', () => {
    for (const other of [spanish, tongan]) {
      for (const [key, text] of other) expect(variables(text), key).toEqual(variables(english.get(key) ?? ''));
    }
  });

  it('the English catalogue is the core plus the feature texts, with no group in both', () => {
    const core = Object.keys(enCore);
    const features = Object.keys(featuresEn);
    expect(core.filter((group) => features.includes(group))).toEqual([]);
    expect([...english.keys()].sort()).toEqual([...leaves(enCore).keys(), ...leaves(featuresEn).keys()].sort());
  });

  const areas: [string, Tree, Tree][] = [
    ['shell', shellEn, shellEs],
    ['auth', authEn, authEs],
    ['account', accountEn, accountEs],
  ];

  it('each core area has the same keys in English and Spanish', () => {
    for (const [area, english, spanish] of areas) {
      expect([...leaves(spanish).keys()].sort(), area).toEqual([...leaves(english).keys()].sort());
    }
  });

  it('the core areas make up the core, each top-level group in one area only', () => {
    const groups = areas.flatMap(([, english]) => Object.keys(english));
    expect(groups.length).toBe(new Set(groups).size);
    expect([...groups].sort()).toEqual(Object.keys(enCore).sort());
  });
});
