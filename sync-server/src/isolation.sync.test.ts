/**
 * Tenant isolation on the sync server, for every document kind (issue 11, item 13): a user of
 * another account, holding valid tokens for their own documents, gets nothing of the victim's
 * document and changes nothing in it:
 * - their own token, presented on the victim's document name;
 * - tokens naming the victim's document (as if the API had been fooled into signing one), for
 *   their own account and for the victim's;
 * - document names that mix the intruder's account or app with the victim's entity id;
 * - on a socket where their own document is open, an update and then an authentication for the
 *   victim's document (Hocuspocus multiplexes documents on one socket).
 * Each attempt carries an edit; afterwards the victim's document, live (an editor has it open
 * throughout) and persisted (stored state plus the update log), is what it was, and no document
 * row was made for any name the intruder tried.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { DOC_KINDS, DOC_ROOTS, DOC_ROOT_VALUES, docName, type DocumentKind } from '@gd/shared';
import { openClient, rawUpdateMessage, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, signDocToken, type Fixture } from './testing/fixtures.ts';
import { startSync, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let victim: Fixture;
let intruder: Fixture;
const clients: TestClient[] = [];

/** Per kind: the victim's document and the intruder's own (a kind without a table yet has no entity). */
const docs = {} as Record<DocumentKind, { victim: string; own: string; served: boolean }>;
/** The victim's editor, open on each served document for the whole file. */
const editors = {} as Partial<Record<DocumentKind, TestClient>>;

const idOf = (name: string) => name.split('/')[3]!;

/** An edit under `key` in the kind's first root that is not `meta`, in the shape that root holds. */
function edit(doc: Y.Doc, kind: DocumentKind, key: string): void {
  const roots = DOC_ROOT_VALUES[kind] as Record<string, 'map' | 'json'>;
  const root = Object.keys(roots).find((r) => r !== 'meta')!;
  doc.getMap(root).set(key, roots[root] === 'map' ? new Y.Map() : `written by ${key}`);
}
const content = (doc: Y.Doc, kind: DocumentKind) => Object.fromEntries(DOC_ROOTS[kind].map((r) => [r, doc.getMap(r).toJSON()]));

/** What is stored of a document: its state with the logged updates applied; null when no row. */
async function persisted(name: string, kind: DocumentKind): Promise<Record<string, unknown> | null> {
  const { rows } = await server.db.query<{ state: Buffer }>('SELECT state FROM documents WHERE name = $1', [name]);
  if (!rows[0]) return null;
  const doc = new Y.Doc();
  Y.applyUpdate(doc, rows[0].state);
  const log = await server.db.query<{ update: Buffer }>('SELECT "update" FROM document_updates WHERE name = $1 ORDER BY id', [name]);
  for (const row of log.rows) Y.applyUpdate(doc, row.update);
  return content(doc, kind);
}

const open = (name: string, token: string | (() => Promise<string>), doc?: Y.Doc) => {
  const c = openClient({ url: server.url, name, token, doc });
  clients.push(c);
  return c;
};
const ownToken = (kind: DocumentKind) => intruder.token(intruder.users.manager, { doc: docs[kind].own });

beforeAll(async () => {
  server = await startSync();
  [victim, intruder] = await Promise.all([createFixture(server.db), createFixture(server.db)]);
  const names = async (fx: Fixture, kind: DocumentKind) => {
    switch (kind) {
      case 'journey': return fx.newJourneyDoc();
      case 'segment': return fx.newSegmentDoc();
      case 'message': return fx.newMessageDoc();
      case 'dashboard': return fx.newDashboardDoc();
    }
  };
  for (const kind of DOC_KINDS) {
    const [v, own] = [await names(victim, kind), await names(intruder, kind)];
    // A kind is served when its owner may open it (its entity table exists).
    const probe = open(v, () => victim.token(victim.users.manager, { doc: v }));
    await waitFor(() => probe.refusals.length > 0 || synced(probe), `an answer for ${kind}`);
    docs[kind] = { victim: v, own, served: probe.refusals.length === 0 };
    if (docs[kind].served) {
      edit(probe.doc, kind, 'victim-secret');
      await waitFor(() => !probe.provider.hasUnsyncedChanges, `the victim's ${kind} edit confirmed`);
      editors[kind] = probe;
    } else {
      expect(probe.refusals[0]).toBe(`${kind} documents are not served yet`);
    }
  }
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

/** Connects with a document carrying the intruder's edit; answers the refusal, after checking nothing came back. */
async function refused(name: string, kind: DocumentKind, token: string): Promise<string> {
  const doc = new Y.Doc();
  edit(doc, kind, `intruder-${randomUUID()}`);
  const c = openClient({ url: server.url, name, token, doc });
  try {
    await waitFor(() => c.refusals.length > 0 || synced(c), 'an answer');
    expect(c.provider.isSynced).toBe(false);
    expect(JSON.stringify(content(c.doc, kind))).not.toContain('victim-secret');
    return c.refusals[0] ?? 'accepted';
  } finally {
    c.destroy();
  }
}

function authMessage(name: string, token: string): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, name);
  encoding.writeVarUint(encoder, 2); // Auth
  encoding.writeVarUint(encoder, 0); // Token
  encoding.writeVarString(encoder, token);
  return encoding.toUint8Array(encoder);
}

/** A bare socket: what the server answers, as [document, message type, authentication reason or type]. */
async function bareSocket() {
  const ws = new WebSocket(server.url);
  const answers: { name: string; type: number; auth?: number; reason?: string }[] = [];
  ws.on('message', (data: Buffer) => {
    const decoder = decoding.createDecoder(new Uint8Array(data));
    const name = decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type !== 2) return void answers.push({ name, type });
    const auth = decoding.readVarUint(decoder);
    answers.push({ name, type, auth, ...(auth === 1 ? { reason: decoding.readVarString(decoder) } : {}) });
  });
  await new Promise<void>((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  return { ws, answers };
}

describe.each(DOC_KINDS.map((kind) => [kind]))('%s documents', (kind) => {
  let before: Record<string, unknown> | null;
  const tried = new Set<string>();
  beforeAll(async () => {
    before = await persisted(docs[kind].victim, kind);
    if (docs[kind].served) expect(JSON.stringify(before)).toContain('victim-secret');
    else expect(before).toBeNull();
  });

  it('refuse the intruder\'s own valid token on the victim\'s document', async () => {
    expect(await refused(docs[kind].victim, kind, await ownToken(kind))).toBe('token is for another document');
  });

  it('refuse a token naming the victim\'s document, for the intruder\'s account or the victim\'s', async () => {
    const name = docs[kind].victim;
    const sub = intruder.users.manager.id;
    expect(await refused(name, kind, await signDocToken({ typ: 'doc', sub, acc: intruder.accountId, doc: name, access: 'write' })))
      .toBe('token is for another account');
    expect(await refused(name, kind, await signDocToken({ typ: 'doc', sub, acc: victim.accountId, doc: name, access: 'write' })))
      .toBe(docs[kind].served ? 'user not allowed' : `${kind} documents are not served yet`);
  });

  it('refuse names mixing the intruder\'s account or app with the victim\'s document id', async () => {
    const id = idOf(docs[kind].victim);
    const entity = docs[kind].served ? `${kind} not found` : `${kind} documents are not served yet`;
    const mixes: [string, string, string][] = [
      [intruder.accountId, intruder.appId, entity], // the intruder's own app, the victim's entity
      [intruder.accountId, victim.appId, 'app not found'], // the victim's app under the intruder's account
      [victim.accountId, intruder.appId, 'app not found'], // the intruder's app under the victim's account
    ];
    for (const [acc, app, reason] of mixes) {
      const name = docName(acc, app, kind, id);
      tried.add(name);
      // A token for exactly that name, for the intruder (the API would not sign it: belt and braces).
      expect(await refused(name, kind, await signDocToken({ typ: 'doc', sub: intruder.users.manager.id, acc, doc: name, access: 'write' })))
        .toBe(reason);
      // And the intruder's own token.
      expect(await refused(name, kind, await ownToken(kind))).toBe('token is for another document');
    }
  });

  it('apply nothing sent for the victim\'s document on a socket where the intruder\'s own is open', async () => {
    const { ws, answers } = await bareSocket();
    const token = await ownToken(kind);
    const { own, victim: target } = docs[kind];
    ws.send(authMessage(own, token));
    await waitFor(() => answers.some((a) => a.name === own && a.type === 2), 'the own document answered');
    const ownAnswer = answers.find((a) => a.name === own && a.type === 2)!;
    expect(ownAnswer.auth).toBe(docs[kind].served ? 2 : 1); // authenticated, or not served
    const update = () => {
      const doc = new Y.Doc();
      edit(doc, kind, `intruder-${randomUUID()}`);
      return rawUpdateMessage(target, Y.encodeStateAsUpdate(doc));
    };
    ws.send(update()); // before any authentication for it: queued
    ws.send(authMessage(target, token));
    await waitFor(() => answers.some((a) => a.name === target && a.type === 2), 'the victim\'s document answered');
    expect(answers.filter((a) => a.name === target)).toEqual([{ name: target, type: 2, auth: 1, reason: 'token is for another document' }]);
    ws.send(update()); // after the refusal
    ws.send(authMessage(target, await signDocToken({ typ: 'doc', sub: intruder.users.manager.id, acc: victim.accountId, doc: target, access: 'write' })));
    await waitFor(() => answers.filter((a) => a.name === target).length === 2, 'the second refusal');
    expect(answers.filter((a) => a.name === target)[1]).toMatchObject({ auth: 1 });
    // Nothing but authentication answers ever came for the victim's document.
    expect(answers.filter((a) => a.name === target && a.type !== 2)).toEqual([]);
    ws.close();
  });

  it('left the victim\'s document as it was, live and stored, and made no document for the names tried', async () => {
    const editor = editors[kind];
    if (editor) {
      // Whatever reached the server has reached the open editor by the time a fresh connection syncs.
      const fresh = open(docs[kind].victim, () => victim.token(victim.users.manager, { doc: docs[kind].victim }));
      clients.pop();
      await waitFor(() => synced(fresh), 'a fresh connection synced');
      for (const c of [editor, fresh]) expect(JSON.stringify(content(c.doc, kind))).not.toContain('intruder-');
      expect(content(fresh.doc, kind)).toEqual(content(editor.doc, kind));
      fresh.destroy();
    }
    expect(await persisted(docs[kind].victim, kind)).toEqual(before);
    for (const name of tried) expect(await persisted(name, kind)).toBeNull();
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM document_updates WHERE name LIKE $1`, [`%/${kind}/${idOf(docs[kind].victim)}`]);
    const logged = await server.db.query<{ update: Buffer }>('SELECT "update" FROM document_updates WHERE name = $1', [docs[kind].victim]);
    expect(rows[0]!.n).toBe(logged.rows.length); // no update logged under any other name for the victim's id
  });
});
