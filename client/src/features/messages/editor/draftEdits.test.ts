import { describe, expect, it } from 'vitest';
import { createMessageDraft, MAX_AB_VARIANTS, type MessageDraft } from '@gd/shared/message/draft';
import { addLanguage, addVariant, rebaseDraft, removeLanguage, removeVariant, setContentField, setVariantType } from './draftEdits.ts';

const title = (d: MessageDraft, id: string, lang: string) => d.variants.find((v) => v.id === id)?.content[lang]?.title;

describe('message draft edits', () => {
  it('adds variants with the next letter and even shares, up to the maximum', () => {
    let d = createMessageDraft('test_ab');
    d = addVariant(d);
    expect(d.variants.map((v) => [v.id, v.share])).toEqual([['A', 34], ['B', 33], ['C', 33]]);
    expect(Object.keys(d.variants[2]?.content ?? {})).toEqual(['en', 'es']);
    while (d.variants.length < MAX_AB_VARIANTS) d = addVariant(d);
    expect(addVariant(d)).toBe(d);
  });

  it('removes a variant, splitting the shares again, never the last one', () => {
    const d = removeVariant(addVariant(createMessageDraft('test_ab')), 'B');
    expect(d.variants.map((v) => [v.id, v.share])).toEqual([['A', 50], ['C', 50]]);
    const single = createMessageDraft('push');
    expect(removeVariant(single, 'main')).toBe(single);
  });

  it('changes a variant type in every language, keeping its texts', () => {
    let d = setContentField(createMessageDraft('test_ab'), 'A', 'en', 'title', 'Hello');
    d = setVariantType(d, 'A', 'banner');
    const a = d.variants[0];
    expect(a?.content.en).toMatchObject({ type: 'banner', title: 'Hello', position: 'top' });
    expect(a?.content.es?.type).toBe('banner');
  });

  it('adds a language to every variant and removes one, moving the default', () => {
    let d = addLanguage(createMessageDraft('test_ab'), 'fr');
    expect(d.languages).toEqual(['en', 'es', 'fr']);
    expect(d.variants.every((v) => v.content.fr?.type === 'push')).toBe(true);
    d = removeLanguage(d, 'en');
    expect(d.languages).toEqual(['es', 'fr']);
    expect(d.defaultLanguage).toBe('es');
    expect(d.variants.every((v) => !('en' in v.content))).toBe(true);
  });

  it('never removes the last language', () => {
    const d = removeLanguage(createMessageDraft('push'), 'es');
    expect(removeLanguage(d, 'en')).toBe(d);
  });
});

describe('rebaseDraft', () => {
  const base = createMessageDraft('test_ab');

  it('is the edit itself when nothing changed in between', () => {
    const next = setContentField(base, 'A', 'en', 'title', 'Hi');
    expect(rebaseDraft(base, next, base)).toBe(next);
  });

  it("keeps a co-editor's change of another field made in between", () => {
    const mine = setContentField(base, 'A', 'en', 'title', 'Mine');
    const theirs = { ...setContentField(base, 'A', 'en', 'message', 'Theirs'), name: 'Their name' };
    const out = rebaseDraft(base, mine, theirs);
    expect(title(out, 'A', 'en')).toBe('Mine');
    expect(out.variants[0]?.content.en?.message).toBe('Theirs');
    expect(out.name).toBe('Their name');
  });

  it("keeps a variant and a language a co-editor added, and applies this edit's removal", () => {
    const theirs = addLanguage(addVariant(base), 'fr');
    const mine = removeLanguage(base, 'es');
    const out = rebaseDraft(base, mine, theirs);
    expect(out.variants.map((v) => v.id)).toEqual(['A', 'B', 'C']);
    expect(out.languages).toEqual(['en', 'fr']);
    expect(out.variants.every((v) => !('es' in v.content) && 'fr' in v.content)).toBe(true);
  });

  it('adds the variant this edit added, and leaves out the one it removed', () => {
    const theirs = setContentField(base, 'B', 'en', 'title', 'B title');
    expect(rebaseDraft(base, addVariant(base), theirs).variants.map((v) => v.id)).toEqual(['A', 'B', 'C']);
    const withC = addVariant(base);
    expect(rebaseDraft(withC, removeVariant(withC, 'C'), setContentField(withC, 'A', 'en', 'title', 'x')).variants.map((v) => v.id)).toEqual(['A', 'B']);
  });
});
