/**
 * Dashboards through the real API on real Postgres: create, list, get (widgets read from the
 * stored document, overlaps resolved), rename and change the window, delete; the owner variants
 * (an analyst changes only their own dashboards), refusals of bad input (10001) and names in use
 * (30), and another app's or account's dashboard answering exactly like an unknown id (10004)
 * without changing it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ErrorCode, addWidget, initDashboardDoc, moveWidgets } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { insertDocument } from '../documents/repository.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string };
let otherApp: { id: string };

interface Summary { id: string; name: string; window: string; docName: string; createdBy: string }
const create = async (name: string, window?: string, client = owner.client, appId = app.id) =>
  (await client.ok<{ dashboard: Summary }>('createDashboard', window ? { name, window } : { name }, { appId })).dashboard;

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client);
  otherApp = await createTestApp(owner.client);
});

afterAll(async () => {
  await api.stop();
});

describe('dashboards', () => {
  it('creates (week by default), lists most recent first, renames, changes the window and deletes', async () => {
    const a = await create('Growth');
    const b = await create('Daily pulse', 'day');
    expect(a).toMatchObject({ name: 'Growth', window: 'week', createdBy: owner.userId });
    expect(a.docName).toBe(`${owner.accountId}/${app.id}/dashboard/${a.id}`);
    expect(b.window).toBe('day');
    const { dashboards } = await owner.client.ok<{ dashboards: Summary[] }>('listDashboards', undefined, { appId: app.id });
    expect(dashboards.map((d) => d.name)).toEqual(['Daily pulse', 'Growth']);

    const renamed = await owner.client.ok<{ dashboard: Summary }>('updateDashboard', { name: 'Growth team', window: 'month' }, { appId: app.id, dashboardId: a.id });
    expect(renamed.dashboard).toMatchObject({ id: a.id, name: 'Growth team', window: 'month' });
    const windowOnly = await owner.client.ok<{ dashboard: Summary }>('updateDashboard', { window: 'day' }, { appId: app.id, dashboardId: a.id });
    expect(windowOnly.dashboard).toMatchObject({ name: 'Growth team', window: 'day' });

    await owner.client.ok('deleteDashboard', undefined, { appId: app.id, dashboardId: b.id });
    const after = await owner.client.ok<{ dashboards: Summary[] }>('listDashboards', undefined, { appId: app.id });
    expect(after.dashboards.map((d) => d.id)).not.toContain(b.id);
    expect((await owner.client.call('getDashboard', undefined, { appId: app.id, dashboardId: b.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    // The name of a deleted dashboard is free again.
    expect((await create('Daily pulse')).name).toBe('Daily pulse');
  });

  it('refuses bad input with field issues and a name in use, writing nothing', async () => {
    const before = (await api.deps.db.query('SELECT count(*)::int AS n FROM dashboards WHERE app_id = $1', [app.id])).rows[0] as { n: number };
    const noName = await owner.client.call('createDashboard', { name: '  ' }, { appId: app.id });
    expect(noName.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const badWindow = await owner.client.call('createDashboard', { name: 'Yearly', window: 'year' }, { appId: app.id });
    expect(badWindow.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(JSON.stringify(badWindow.body)).toContain('window');
    await create('Unique one');
    const taken = await owner.client.call('createDashboard', { name: 'unique ONE' }, { appId: app.id });
    expect(taken.body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED });
    const empty = await owner.client.call('updateDashboard', {}, { appId: app.id, dashboardId: randomUUID() });
    expect(empty.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const after = (await api.deps.db.query('SELECT count(*)::int AS n FROM dashboards WHERE app_id = $1', [app.id])).rows[0] as { n: number };
    expect(after.n).toBe(before.n + 1);
  });

  it('answers the widgets its document holds, overlaps resolved', async () => {
    const d = await create('With widgets');
    const doc = new Y.Doc();
    initDashboardDoc(doc, d.docName);
    addWidget(doc, { kind: 'explore', title: 'Buyers', query: { event: 'purchase', metric: 'people' } }, undefined, 'a');
    addWidget(doc, { kind: 'kpi', title: 'Revenue', query: { event: 'purchase', metric: 'revenue' } }, undefined, 'b');
    addWidget(doc, { kind: 'funnel', title: 'Checkout', query: { steps: [{ event: 'view' }, { event: 'purchase' }] } }, undefined, 'c');
    // A move that left 'b' on top of 'a' (same place: reading order by id): drawn below it.
    moveWidgets(doc, [{ id: 'b', x: 0, y: 0, w: 3, h: 3 }]);
    await insertDocument(api.deps.db, { name: d.docName, accountId: owner.accountId, appId: app.id, kind: 'dashboard', entityId: d.id, state: Y.encodeStateAsUpdate(doc) });
    const { widgets } = await owner.client.ok<{ widgets: { id: string; kind: string; title: string; x: number; y: number; w: number; h: number }[] }>('getDashboard', undefined, { appId: app.id, dashboardId: d.id });
    expect(widgets.map((w) => [w.id, w.kind, w.x, w.y, w.w, w.h])).toEqual([['a', 'explore', 0, 0, 6, 7], ['c', 'funnel', 6, 3, 6, 7], ['b', 'kpi', 0, 7, 3, 3]]);
    const fresh = await create('Never opened');
    expect((await owner.client.ok<{ widgets: unknown[] }>('getDashboard', undefined, { appId: app.id, dashboardId: fresh.id })).widgets).toEqual([]);
  });

  it('an analyst changes only their own dashboards; others\' answer like unknown ones', async () => {
    const analyst = await addMember(api, owner.client, 'analyst');
    const mine = await create('Analyst board', 'day', analyst);
    const theirs = await create('Owner board');
    await analyst.ok('updateDashboard', { name: 'Analyst board 2' }, { appId: app.id, dashboardId: mine.id });
    const unknown = await analyst.call('updateDashboard', { name: 'x' }, { appId: app.id, dashboardId: randomUUID() });
    const foreign = await analyst.call('updateDashboard', { name: 'Hijacked' }, { appId: app.id, dashboardId: theirs.id });
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('deleteDashboard', undefined, { appId: app.id, dashboardId: theirs.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    // They still see it.
    expect((await analyst.ok<{ dashboard: Summary }>('getDashboard', undefined, { appId: app.id, dashboardId: theirs.id })).dashboard.name).toBe('Owner board');
    await analyst.ok('deleteDashboard', undefined, { appId: app.id, dashboardId: mine.id });
    const row = (await api.deps.db.query('SELECT name, deleted_at FROM dashboards WHERE id = $1', [theirs.id])).rows[0] as { name: string; deleted_at: Date | null };
    expect(row).toEqual({ name: 'Owner board', deleted_at: null });
  });

  it('a dashboard of another app or account answers like an unknown id and is left as it was', async () => {
    const elsewhere = await create('Other app board', 'week', owner.client, otherApp.id);
    const intruder = await registerAccount(api);
    const intruderApp = await createTestApp(intruder.client);
    const theirs = await create('Secret board');
    const unknown = await owner.client.call('getDashboard', undefined, { appId: app.id, dashboardId: randomUUID() });
    for (const [client, appId, id] of [[owner.client, app.id, elsewhere.id], [intruder.client, intruderApp.id, theirs.id]] as const) {
      expect((await client.call('getDashboard', undefined, { appId, dashboardId: id })).body).toEqual(unknown.body);
      expect((await client.call('updateDashboard', { name: 'Hijacked' }, { appId, dashboardId: id })).body.code).toBe(ErrorCode.NO_PERMISSION);
      expect((await client.call('deleteDashboard', undefined, { appId, dashboardId: id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    }
    const notUuid = await owner.client.call('getDashboard', undefined, { appId: app.id, dashboardId: 'not-a-uuid' });
    expect(notUuid.body).toEqual(unknown.body);
    // The other account's list does not show it, and its own app refuses the intruder.
    expect((await intruder.client.ok<{ dashboards: unknown[] }>('listDashboards', undefined, { appId: intruderApp.id })).dashboards).toEqual([]);
    expect((await intruder.client.call('listDashboards', undefined, { appId: app.id })).body.status).toBe('KO');
    const rows = (await api.deps.db.query('SELECT name, deleted_at FROM dashboards WHERE id = ANY($1::uuid[]) ORDER BY name', [[elsewhere.id, theirs.id]])).rows;
    expect(rows).toEqual([{ name: 'Other app board', deleted_at: null }, { name: 'Secret board', deleted_at: null }]);
  });
});
