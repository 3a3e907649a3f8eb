import { describe, expect, it } from 'vitest';
import { createMessageDraft } from './draft.ts';
import { diffDrafts } from './diff.ts';

describe('diffDrafts', () => {
  const ab = createMessageDraft('test_ab');
  const withTitle = (title: string) => ({
    ...ab,
    variants: ab.variants.map((v) => (v.id === 'B' ? { ...v, content: { ...v.content, es: { ...v.content.es!, title } } } : v)),
  });

  it('is empty for equal drafts and names each changed field by variant id and language', () => {
    expect(diffDrafts(ab, structuredClone(ab))).toEqual([]);
    expect(diffDrafts(ab, { ...withTitle('Hola'), name: 'Renamed' })).toEqual([
      { path: 'name', kind: 'changed', before: '', after: 'Renamed' },
      { path: 'variants.B.content.es.title', kind: 'changed', before: '', after: 'Hola' },
    ]);
  });

  it('matches variants by id: reordering is no change, added and removed variants are whole', () => {
    expect(diffDrafts(ab, { ...ab, variants: [...ab.variants].reverse() })).toEqual([]);
    const c = { ...ab.variants[0]!, id: 'C', name: 'C' };
    const changes = diffDrafts(ab, { ...ab, variants: [ab.variants[0]!, c] });
    expect(changes.map((x) => `${x.kind}:${x.path}`)).toEqual(['added:variants.C', 'removed:variants.B']);
  });

  it('a language added to the draft shows as added content', () => {
    const fr = { ...ab, languages: [...ab.languages, 'fr'], variants: ab.variants.map((v) => ({ ...v, content: { ...v.content, fr: v.content.en! } })) };
    expect(diffDrafts(ab, fr).map((x) => `${x.kind}:${x.path}`)).toEqual(['changed:languages', 'added:variants.A.content.fr', 'added:variants.B.content.fr']);
  });
});
