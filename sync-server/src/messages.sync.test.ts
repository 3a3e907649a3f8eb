/**
 * Message drafts through one real server: what a team writing one message together relies on.
 * Two people typing in one e-mail body merge character by character, live and after working
 * offline; languages and variants added on both sides are all kept; per-field settings merge; a
 * reader's copy changes nothing; every edit a writer makes passes the server's shape check (a
 * refused update would close the writer's connection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { applyMessageDraftToDoc, messageDraftFromDoc, variantContent, type MessageDraft } from '@gd/shared';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let fx: Fixture;
const clients: TestClient[] = [];
const open = (user: keyof Fixture['users'], name: string) => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users[user], { doc: name, access: user === 'analyst' ? 'read' : 'write' }) });
  clients.push(c);
  return c;
};
const draftOf = (c: TestClient) => messageDraftFromDoc(c.doc);
const change = (c: TestClient, f: (d: MessageDraft) => MessageDraft) => applyMessageDraftToDoc(c.doc, f(draftOf(c)));
const body = (d: MessageDraft, lang = 'en') => d.variants[0]?.content[lang]?.html_body ?? '';
const withBody = (d: MessageDraft, html: string, lang = 'en'): MessageDraft => ({
  ...d, variants: d.variants.map((v, i) => (i === 0 ? { ...v, content: { ...v.content, [lang]: { ...v.content[lang]!, type: 'email', html_body: html } } } : v)),
});
const same = (a: TestClient, b: TestClient) => JSON.stringify(draftOf(a)) === JSON.stringify(draftOf(b));

beforeAll(async () => {
  server = await startSync();
  fx = await createFixture(server.db);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

describe('message drafts', () => {
  it('two writers typing in one body merge character by character, live', async () => {
    const name = await fx.newMessageDoc();
    const [a, b] = [open('manager', name), open('manager', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    expect(draftOf(a)).toMatchObject({ type: 'push', languages: ['en', 'es'] });
    change(a, (d) => withBody(d, '<p>Hello there</p>'));
    await waitFor(() => body(draftOf(b)) === '<p>Hello there</p>', 'the body reached b');
    change(a, (d) => withBody(d, '<h1>Hi</h1><p>Hello there</p>'));
    change(b, (d) => withBody(d, '<p>Hello there, friend</p>'));
    await waitFor(() => same(a, b) && body(draftOf(a)).includes('friend') && body(draftOf(a)).includes('<h1>'), 'convergence');
    expect(body(draftOf(a))).toBe('<h1>Hi</h1><p>Hello there, friend</p>');
    expect(a.refusals).toEqual([]);
    expect(b.refusals).toEqual([]);
  });

  it('merges what two writers did offline: text, languages, variants and settings, and stores it', async () => {
    const name = await fx.newMessageDoc();
    const [a, b] = [open('manager', name), open('manager', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    change(a, (d) => withBody({ ...d, type: 'test_ab', variants: d.variants.map((v) => ({ ...v, share: 50 })) }, 'The sale starts today.'));
    await waitFor(() => same(a, b), 'base shared');
    a.socket.disconnect();
    b.socket.disconnect();
    await waitFor(() => !a.provider.isSynced && !b.provider.isSynced, 'both offline');
    change(a, (d) => withBody({ ...d, name: 'Sale', languages: [...d.languages, 'fr'], variants: d.variants.map((v) => ({ ...v, content: { ...v.content, ...variantContent('push', ['fr']) } })) }, 'The big sale starts today.'));
    change(b, (d) => withBody({
      ...d,
      languages: [...d.languages, 'de'],
      delivery: { frequencyCap: 1, quietHours: { from: '22:00', to: '08:00' } },
      variants: [...d.variants.map((v) => ({ ...v, share: 50, content: { ...v.content, ...variantContent('push', ['de']) } })), { id: 'B', name: 'B', share: 0, content: variantContent('push', [...d.languages, 'de']) }],
    }, 'The sale starts today!'));
    void a.socket.connect();
    void b.socket.connect();
    await waitFor(() => synced(a) && synced(b) && same(a, b) && draftOf(a).languages.length === 4, 'offline work merged');
    const merged = draftOf(a);
    expect(body(merged)).toBe('The big sale starts today!');
    expect([...merged.languages].sort()).toEqual(['de', 'en', 'es', 'fr']);
    expect(merged).toMatchObject({ name: 'Sale', delivery: { frequencyCap: 1, quietHours: { from: '22:00', to: '08:00' } } });
    expect(merged.variants.map((v) => v.id)).toContain('B');
    // What the server stores (what submit and a later session read) is what both see.
    await waitFor(async () => {
      const stored = await storedDoc(server.db, name);
      return stored !== null && body(messageDraftFromDoc(stored)) === 'The big sale starts today!' && messageDraftFromDoc(stored).languages.length === 4;
    }, 'stored');
    expect([...a.refusals, ...b.refusals]).toEqual([]);
  });

  it('a reader sees the draft live and its own changes go nowhere', async () => {
    const name = await fx.newMessageDoc();
    const [writer, reader] = [open('manager', name), open('analyst', name)];
    await waitFor(() => synced(writer) && synced(reader), 'both synced');
    change(writer, (d) => ({ ...d, name: 'By the writer' }));
    await waitFor(() => draftOf(reader).name === 'By the writer', 'the reader sees it');
    change(reader, (d) => ({ ...d, name: 'By the reader' }));
    change(writer, (d) => ({ ...d, delivery: { ...d.delivery, frequencyCap: 3 } }));
    await waitFor(() => draftOf(reader).delivery.frequencyCap === 3, 'a later edit of the writer arrives');
    expect(draftOf(writer).name).toBe('By the writer');
    const stored = await storedDoc(server.db, name);
    expect(stored && messageDraftFromDoc(stored).name).not.toBe('By the reader');
    const fresh = new Y.Doc();
    Y.applyUpdate(fresh, Y.encodeStateAsUpdate(writer.doc));
    expect(messageDraftFromDoc(fresh).name).toBe('By the writer');
  });
});
