import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createMessageDraft, variantContent, type MessageDraft } from '../message/draft.ts';
import { createMessageContent } from '../message/model.ts';
import { applyMessageDraftToDoc, contentKey, initMessageDoc, messageDraftFromDoc, patchText } from './messageDoc.ts';
import { migrateDoc } from './migrate.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { checkUpdateShape } from './updateShape.ts';
import { replica, sync } from './testing.ts';

const NAME = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222/message/33333333-3333-4333-8333-333333333333';

function emailDraft(): MessageDraft {
  const d = createMessageDraft('email');
  const en = { ...d.variants[0]!.content.en!, subject: 'Hello', html_body: '<p>Hi {{customer_id}}</p>', sender_email: 'news@example.com', life: 3600 };
  return { ...d, name: 'Welcome', target: { kind: 'audience', id: 'a1' }, variants: [{ ...d.variants[0]!, content: { ...d.variants[0]!.content, en } }] };
}

function withEn(d: MessageDraft, change: Partial<MessageDraft['variants'][number]['content'][string]>, variant = 0): MessageDraft {
  const variants = d.variants.map((v, i) => (i === variant ? { ...v, content: { ...v.content, en: { ...v.content.en!, ...change } } } : v));
  return { ...d, variants };
}

describe('message draft ⇄ doc', () => {
  it('round-trips a draft, every update passing the sync server shape check', () => {
    const doc = new Y.Doc();
    const problems: (string | null)[] = [];
    doc.on('update', (u: Uint8Array) => problems.push(checkUpdateShape(u, 'message')));
    expect(initMessageDoc(doc, NAME, emailDraft())).toBe(true);
    expect(initMessageDoc(doc, NAME)).toBe(false);
    expect(messageDraftFromDoc(doc)).toEqual(emailDraft());
    expect(messageDraftFromDoc(replica(doc))).toEqual(emailDraft());
    const ab = createMessageDraft('test_ab');
    applyMessageDraftToDoc(doc, ab);
    expect(messageDraftFromDoc(doc)).toEqual(ab);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.filter(Boolean)).toEqual([]);
    expect(() => initMessageDoc(new Y.Doc(), NAME.replace('/message/', '/journey/'))).toThrow();
  });

  it('two people typing in one e-mail body merge character by character', () => {
    const base = new Y.Doc();
    applyMessageDraftToDoc(base, withEn(emailDraft(), { html_body: '<p>Hello there</p>' }));
    const a = replica(base);
    const b = replica(base);
    applyMessageDraftToDoc(a, withEn(messageDraftFromDoc(a), { html_body: '<h1>Hi</h1><p>Hello there</p>' }));
    applyMessageDraftToDoc(b, withEn(messageDraftFromDoc(b), { html_body: '<p>Hello there, friend</p>' }));
    sync(a, b);
    expect(messageDraftFromDoc(a).variants[0]!.content.en!.html_body).toBe('<h1>Hi</h1><p>Hello there, friend</p>');
    expect(messageDraftFromDoc(b)).toEqual(messageDraftFromDoc(a));
  });

  it('a keystroke in a 200 KB body sends a few bytes, and an unchanged draft sends nothing', () => {
    const doc = new Y.Doc();
    const big = `<p>${'x'.repeat(200_000)}</p>`;
    applyMessageDraftToDoc(doc, withEn(emailDraft(), { html_body: big }));
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    applyMessageDraftToDoc(doc, messageDraftFromDoc(doc));
    expect(updates).toEqual([]);
    applyMessageDraftToDoc(doc, withEn(messageDraftFromDoc(doc), { html_body: big.replace('<p>', '<p>!') }));
    expect(updates).toHaveLength(1);
    expect(updates[0]!.byteLength).toBeLessThan(100);
  });

  it('languages added by two people at once are both kept; settings merge per key', () => {
    const base = new Y.Doc();
    applyMessageDraftToDoc(base, emailDraft());
    const a = replica(base);
    const b = replica(base);
    const addLanguage = (doc: Y.Doc, lang: string) => {
      const d = messageDraftFromDoc(doc);
      applyMessageDraftToDoc(doc, { ...d, languages: [...d.languages, lang], variants: d.variants.map((v) => ({ ...v, content: { ...v.content, ...variantContent('email', [lang]) } })) });
    };
    addLanguage(a, 'fr');
    applyMessageDraftToDoc(a, { ...messageDraftFromDoc(a), name: 'From A' });
    addLanguage(b, 'de');
    applyMessageDraftToDoc(b, { ...messageDraftFromDoc(b), delivery: { frequencyCap: 2, quietHours: null } });
    sync(a, b);
    const merged = messageDraftFromDoc(a);
    expect([...merged.languages].sort()).toEqual(['de', 'en', 'es', 'fr']);
    expect(Object.keys(merged.variants[0]!.content).sort()).toEqual(['de', 'en', 'es', 'fr']);
    expect(merged.name).toBe('From A');
    expect(merged.delivery.frequencyCap).toBe(2);
    expect(messageDraftFromDoc(b)).toEqual(merged);
  });

  it('a removed variant takes its content with it; broken values read as defaults', () => {
    const doc = new Y.Doc();
    const ab = createMessageDraft('test_ab');
    applyMessageDraftToDoc(doc, ab);
    applyMessageDraftToDoc(doc, { ...ab, variants: [{ ...ab.variants[0]!, share: 100 }] });
    expect([...doc.getMap('content').keys()].sort()).toEqual([contentKey('A', 'en'), contentKey('A', 'es')]);
    doc.getMap('settings').set('schedule', { kind: 'sometime' });
    (doc.getMap('content').get(contentKey('A', 'en')) as Y.Map<unknown>).set('life', 'forever');
    const read = messageDraftFromDoc(doc);
    expect(read.schedule).toEqual({ kind: 'now' });
    expect(read.variants.map((v) => v.id)).toEqual(['A']);
    expect(read.variants[0]!.content.en!.life).toBeNull();
  });

  it('migrates a version 1 document (one flat content) into the English content of its only variant', () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      doc.getMap('meta').set('kind', 'message');
      doc.getMap('meta').set('schemaVersion', 1);
      for (const [k, v] of Object.entries({ ...createMessageContent('banner'), title: 'Old title', position: 'bottom' })) doc.getMap('content').set(k, v);
    });
    expect(migrateDoc(doc)).toEqual({ status: 'migrated', kind: 'message', from: 1, to: SCHEMA_VERSION.message });
    const d = messageDraftFromDoc(doc);
    expect(d.type).toBe('banner');
    expect(d.variants[0]!.content.en).toMatchObject({ type: 'banner', title: 'Old title', position: 'bottom' });
    expect(d.variants[0]!.content.es).toEqual(createMessageContent('banner'));
  });
});

describe('patchText', () => {
  it('writes only the differing middle and never splits a surrogate pair', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    text.insert(0, 'a😀b');
    patchText(text, 'a😁b');
    expect(text.toJSON()).toBe('a😁b');
    patchText(text, 'a😁b');
    patchText(text, '');
    expect(text.toJSON()).toBe('');
  });
});
