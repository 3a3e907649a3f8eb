/**
 * Segments across services: the real API with the real sync server at /collab. A segment document
 * opens with server-made content (an empty root group), is edited live over WebSockets, and the
 * API evaluates what is live on the sync server (not the stored copy, which lags by the store
 * debounce); viewers get read-only documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import * as Y from 'yjs';
import { addSegmentNode, applySegmentToDoc, createConditionNode, segmentFromDoc, type SegmentCondition } from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, type SyncServer } from '@gd/sync-server';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { seeder } from '../../api-server/src/features/segments/testing/data.ts';
import { addMember, registerAccount, startTestApi, type TestApi } from '../../api-server/src/testing/harness.ts';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

interface SegmentRow { id: string; docName: string }

let api: TestApi;
let sync: SyncServer;
let db: Db;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
const docs: DocClient[] = [];

/** Adds a condition under the root through the provider, and waits until the server has it. */
async function addCondition(doc: DocClient, key: string, condition: Partial<SegmentCondition>) {
  const segment = segmentFromDoc(doc.doc);
  applySegmentToDoc(doc.doc, addSegmentNode(segment, segment.rootKey, createConditionNode(key, condition)));
  await waitFor(() => !doc.provider.hasUnsyncedChanges, 'edit acknowledged');
}

beforeAll(async () => {
  api = await startTestApi();
  // A long store debounce: what the API reads must come from the live document.
  sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 60_000, maxDebounceMs: 120_000 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  db = createPool(inject('databaseUrl'), 2);
  owner = await registerAccount(api);
  appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Segments', os: 'iOS' })).app.id;
  const s = seeder(db, appId);
  await s.person({ customer_id: 'es-1', country: 'ES' });
  await s.person({ customer_id: 'es-2', country: 'ES', app_version: '2.1' });
  await s.person({ customer_id: 'fr-1', country: 'FR', app_version: '2.0' });
});
afterAll(async () => {
  for (const d of docs) d.destroy();
  await sync.shutdown();
  await db.end();
  await api.stop();
});

describe('segment documents', () => {
  it('are edited live and evaluated as they are live', async () => {
    const { segment } = await owner.client.ok<{ segment: SegmentRow }>('createSegment', { name: 'Spain' }, { appId });
    const doc = await openApiDoc(owner.client, segment.docName, docs);
    expect(doc.access).toBe('write');
    expect(segmentFromDoc(doc.doc).nodes).toEqual([{ key: 'root', kind: 'group', combinator: 'and', children: [] }]);

    await addCondition(doc, 'country', { type: 'attribute', id: 'country', condition: 'equals', input: 'ES' });
    const detail = await owner.client.ok<{ definition: { nodes: unknown[] }; problems: unknown[] }>('getSegment', undefined, { appId, segmentId: segment.id });
    expect(detail.definition.nodes).toHaveLength(2);
    expect(detail.problems).toEqual([]);

    const { audience } = await owner.client.ok<{ audience: { id: string; status: string; personCount: number } }>(
      'createAudience', { name: 'Spain live', source: { from: 'segment', segmentId: segment.id } }, { appId });
    expect(audience).toMatchObject({ status: 'ready', personCount: 2 });

    // A second condition, then a refresh: the audience follows its live segment.
    await addCondition(doc, 'version', { type: 'attribute', id: 'app_version', condition: 'greater_than', input: '2.0' });
    const refreshed = await owner.client.ok<{ audience: { personCount: number } }>('refreshAudience', undefined, { appId, audienceId: audience.id });
    expect(refreshed.audience.personCount).toBe(1);
    // The store debounce has not written the edits: the API read the live document.
    const stored = (await db.query<{ state: Buffer }>('SELECT state FROM documents WHERE name = $1', [segment.docName])).rows[0]?.state;
    const storedDoc = new Y.Doc();
    if (stored) Y.applyUpdate(storedDoc, stored);
    expect(segmentFromDoc(storedDoc).nodes.length).toBeLessThan(3);
  });

  it('open read-only for a user who may view audiences but not modify segments', async () => {
    const { segment } = await owner.client.ok<{ segment: SegmentRow }>('createSegment', { name: 'Watched' }, { appId });
    const analyst = await addMember(api, owner.client, 'analyst');
    const doc = await openApiDoc(analyst, segment.docName, docs);
    expect(doc.access).toBe('read');
    await waitFor(() => doc.scope() === 'readonly', 'read-only connection');
  });
});
