/**
 * The stored copy of a document is its last full state plus the updates the sync server logged
 * after it (migration 009): an edit acknowledged right before a sync server died is in what
 * clones and background reads see.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docName } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { insertDocument, storedDocState } from './repository.ts';

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.stop(); });

it('merges the logged updates into the stored state, in order', async () => {
  const { client, accountId } = await registerAccount(api);
  const app = await createTestApp(client);
  const id = randomUUID();
  const name = docName(accountId, app.id, 'segment', id);
  expect(await storedDocState(api.db, name)).toBeUndefined();

  const doc = new Y.Doc();
  doc.getMap('m').set('stored', 1);
  await insertDocument(api.db, { name, accountId, appId: app.id, kind: 'segment', entityId: id, state: Y.encodeStateAsUpdate(doc) });
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  doc.getMap('m').set('logged', 2);
  doc.getMap('m').set('stored', 3); // a later update overwrites: order matters
  for (const u of updates) await api.db.query('INSERT INTO document_updates (name, "update") VALUES ($1, $2)', [name, Buffer.from(u)]);

  const read = new Y.Doc();
  Y.applyUpdate(read, (await storedDocState(api.db, name))!);
  expect(read.getMap('m').toJSON()).toEqual({ stored: 3, logged: 2 });
});
