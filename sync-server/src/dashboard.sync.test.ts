/**
 * The `dashboard` document kind through a real sync server: the server seeds it (meta, no widgets),
 * two people arranging one dashboard at once converge on the same layout (and it is stored), an
 * analyst reads a colleague's dashboard without changing it but edits their own, and a deleted
 * dashboard's document is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWidget, dashboardLayout, moveWidgets, widgetsFromDoc } from '@gd/shared';
import type * as Y from 'yjs';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let fx: Fixture;
const clients: TestClient[] = [];
const open = (user: keyof Fixture['users'], name: string, doc?: Y.Doc) => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users[user], { doc: name }), doc });
  clients.push(c);
  return c;
};
const kpi = (title: string) => ({ kind: 'kpi' as const, title, query: { event: 'purchase', metric: 'events' as const } });
const chart = (title: string) => ({ kind: 'explore' as const, title, query: { event: 'purchase', metric: 'people' as const } });

beforeAll(async () => {
  server = await startSync();
  fx = await createFixture(server.db);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

describe('dashboard documents', () => {
  it('two people arrange one dashboard at once and converge; the layout is stored', async () => {
    const name = await fx.newDashboardDoc(fx.users.author); // the author's own: both may arrange it
    const [a, b] = [open('manager', name), open('author', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    expect(a.doc.getMap('meta').toJSON()).toEqual({ schemaVersion: 1, kind: 'dashboard' });
    expect(b.scope()).toBe('read-write');

    addWidget(a.doc, chart('Buyers'), undefined, 'buyers');
    addWidget(a.doc, kpi('Sales'), undefined, 'sales');
    await waitFor(() => widgetsFromDoc(b.doc).length === 2, 'b sees a\'s widgets');
    // At the same time: a moves the chart down and widens it, b adds a widget and moves the KPI.
    moveWidgets(a.doc, [{ id: 'buyers', x: 0, y: 4, w: 12, h: 6 }]);
    addWidget(b.doc, kpi('Signups'), undefined, 'signups');
    moveWidgets(b.doc, [{ id: 'sales', x: 0, y: 0, w: 3, h: 3 }]);
    await waitFor(() => isDeepStrictEqual(dashboardLayout(a.doc), dashboardLayout(b.doc)) && widgetsFromDoc(a.doc).length === 3, 'convergence');
    const layout = widgetsFromDoc(a.doc).map((w) => [w.id, w.x, w.y, w.w, w.h]);
    expect(layout).toEqual([['sales', 0, 0, 3, 3], ['signups', 9, 0, 3, 3], ['buyers', 0, 4, 12, 6]]);

    a.destroy();
    b.destroy();
    await waitFor(async () => {
      const stored = await storedDoc(server.db, name);
      return stored !== null && widgetsFromDoc(stored).length === 3;
    }, 'stored after the last disconnect');
    expect(widgetsFromDoc((await storedDoc(server.db, name))!).map((w) => [w.id, w.x, w.y, w.w, w.h])).toEqual(layout);
  });

  it('an analyst reads a colleague\'s dashboard without changing it, and edits their own', async () => {
    const name = await fx.newDashboardDoc(fx.users.manager);
    const writer = open('manager', name);
    await waitFor(() => synced(writer), 'writer synced');
    addWidget(writer.doc, kpi('Sales'), undefined, 'sales');
    const reader = open('analyst', name);
    await waitFor(() => synced(reader) && widgetsFromDoc(reader.doc).length === 1, 'reader synced');
    expect(reader.scope()).toBe('readonly');
    moveWidgets(reader.doc, [{ id: 'sales', x: 6, y: 6, w: 6, h: 6 }]);
    await waitFor(() => reader.syncStatuses.includes(false), 'the reader\'s move refused');
    moveWidgets(writer.doc, [{ id: 'sales', x: 3, y: 0, w: 3, h: 3 }]);
    await waitFor(() => widgetsFromDoc(reader.doc)[0]?.x === 3 || widgetsFromDoc(reader.doc)[0]?.y === 6, 'reader hears the writer');
    expect(widgetsFromDoc(writer.doc).map((w) => [w.x, w.y])).toEqual([[3, 0]]);
    writer.destroy();
    reader.destroy();
    await waitFor(async () => {
      const stored = await storedDoc(server.db, name);
      return stored !== null && widgetsFromDoc(stored)[0]?.x === 3;
    }, 'stored');
    expect(widgetsFromDoc((await storedDoc(server.db, name))!).map((w) => [w.x, w.y, w.w])).toEqual([[3, 0, 3]]);

    const own = await fx.newDashboardDoc(fx.users.analyst);
    const mine = open('analyst', own);
    await waitFor(() => synced(mine), 'own synced');
    expect(mine.scope()).toBe('read-write');
    addWidget(mine.doc, kpi('Mine'), undefined, 'mine');
    await waitFor(() => !mine.provider.hasUnsyncedChanges, 'own edit confirmed');
  });

  it('refuses the document of a deleted dashboard', async () => {
    const name = await fx.newDashboardDoc();
    await server.db.query('UPDATE dashboards SET deleted_at = now() WHERE doc_name = $1', [name]);
    const c = open('manager', name);
    await waitFor(() => c.refusals.length > 0, 'refused');
    expect(c.refusals[0]).toBe('dashboard not found');
  });
});
