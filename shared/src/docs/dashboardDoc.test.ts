import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { overlaps } from '../dashboard/model.ts';
import { addWidget, dashboardLayout, initDashboardDoc, moveWidgets, removeWidget, renameWidget, widgetsFromDoc } from './dashboardDoc.ts';
import { migrateDoc } from './migrate.ts';
import { updateShapeProblem } from './updateShape.ts';
import { replica, sync } from './testing.ts';

const NAME = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222/dashboard/33333333-3333-4333-8333-333333333333';
const kpi = (title: string) => ({ kind: 'kpi' as const, title, query: { event: 'purchase', metric: 'events' as const } });
const explore = (title: string) => ({ kind: 'explore' as const, title, query: { event: 'purchase', metric: 'people' as const } });

function fresh(): Y.Doc {
  const doc = new Y.Doc();
  initDashboardDoc(doc, NAME);
  return doc;
}

describe('dashboard ⇄ doc', () => {
  it('starts empty, current, and is initialised once', () => {
    const doc = fresh();
    expect(widgetsFromDoc(doc)).toEqual([]);
    expect(migrateDoc(doc)).toEqual({ status: 'current', kind: 'dashboard', version: 1 });
    expect(initDashboardDoc(doc, NAME)).toBe(false);
    expect(() => initDashboardDoc(new Y.Doc(), NAME.replace('dashboard', 'segment'))).toThrow();
  });

  it('never writes into a document without content (the server seeds it)', () => {
    expect(addWidget(new Y.Doc(), kpi('Sales'))).toBeNull();
  });

  it('appends widgets at free places, moves, renames and removes them', () => {
    const doc = fresh();
    const a = addWidget(doc, explore('People'), undefined, 'a');
    const b = addWidget(doc, explore('Buyers'), undefined, 'b');
    const c = addWidget(doc, kpi('Sales'), undefined, 'c');
    expect([a, b, c]).toEqual(['a', 'b', 'c']);
    expect(widgetsFromDoc(doc).map((w) => [w.id, w.x, w.y, w.w, w.h])).toEqual([['a', 0, 0, 6, 7], ['b', 6, 0, 6, 7], ['c', 0, 7, 3, 3]]);
    moveWidgets(doc, [{ id: 'c', x: 9, y: 0, w: 3, h: 3 }, { id: 'gone', x: 0, y: 0, w: 2, h: 2 }]);
    renameWidget(doc, 'a', 'Active people');
    removeWidget(doc, 'b');
    expect(widgetsFromDoc(doc).map((w) => [w.id, w.title, w.x, w.y])).toEqual([['a', 'Active people', 0, 0], ['c', 'Sales', 9, 0]]);
  });

  it('two people moving different widgets at once both keep their move', () => {
    const base = fresh();
    addWidget(base, explore('A'), undefined, 'a');
    addWidget(base, explore('B'), undefined, 'b');
    const one = replica(base);
    const two = replica(base);
    moveWidgets(one, [{ id: 'a', x: 0, y: 10, w: 12, h: 4 }]);
    moveWidgets(two, [{ id: 'b', x: 0, y: 0, w: 4, h: 4 }]);
    sync(one, two);
    expect(dashboardLayout(one)).toEqual(dashboardLayout(two));
    expect(widgetsFromDoc(one).map((w) => [w.id, w.x, w.y, w.w, w.h])).toEqual([['b', 0, 0, 4, 4], ['a', 0, 10, 12, 4]]);
  });

  it('widgets two people add at once to the same place are both kept and drawn without overlap', () => {
    const base = fresh();
    const one = replica(base);
    const two = replica(base);
    addWidget(one, kpi('One'), undefined, 'one');
    addWidget(two, kpi('Two'), undefined, 'two');
    sync(one, two);
    const layout = dashboardLayout(one);
    expect(layout.map((w) => w.id).sort()).toEqual(['one', 'two']);
    expect(overlaps(layout[0]!, layout[1]!)).toBe(false);
    expect(dashboardLayout(two)).toEqual(layout);
  });

  it('a widget that does not parse is left out of the view, not deleted', () => {
    const doc = fresh();
    addWidget(doc, kpi('Sales'), undefined, 'ok');
    const bad = new Y.Map<unknown>();
    doc.getMap('widgets').set('bad', bad);
    bad.set('kind', 'explore');
    bad.set('query', { metric: 'events' });
    expect(widgetsFromDoc(doc).map((w) => w.id)).toEqual(['ok']);
    expect(doc.getMap('widgets').has('bad')).toBe(true);
  });

  it('its edits pass the sync server\'s shape check; a foreign root does not', () => {
    const doc = fresh();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    addWidget(doc, kpi('Sales'), undefined, 'k');
    moveWidgets(doc, [{ id: 'k', x: 3, y: 1, w: 4, h: 4 }]);
    for (const u of updates) expect(updateShapeProblem(u, 'dashboard')).toBeNull();
    const stray = new Y.Doc();
    stray.getMap('layout').set('x', 1);
    expect(updateShapeProblem(Y.encodeStateAsUpdate(stray), 'dashboard')).toEqual({ code: 'unknown_root', root: 'layout' });
  });
});
